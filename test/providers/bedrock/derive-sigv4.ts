// An independent SigV4 derivation with node:crypto, to check gw's signer against.
import { createHash, createHmac } from 'node:crypto';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function hmac(key: Buffer | string, text: string): Buffer {
  return createHmac('sha256', key).update(text).digest();
}

// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html, step by step.
export function deriveAuthorization(input: { url: string; method?: string; body: string; headers: Record<string, string>; region: string; service: string; accessKeyId: string; secretAccessKey: string }): string {
  const url = new URL(input.url);
  const names = Object.keys(input.headers).filter((name) => name !== 'authorization').sort();
  const canonicalHeaders = names.map((name) => `${name}:${input.headers[name]?.trim()}\n`).join('');
  // Non-S3 services escape each path segment once more: %3A → %253A.
  const canonicalPath = url.pathname.split('/').map((segment) => encodeURIComponent(segment)).join('/');
  const canonicalRequest = [input.method ?? 'POST', canonicalPath, '', canonicalHeaders, names.join(';'), sha256(input.body)].join('\n');
  const date = input.headers['x-amz-date'] ?? '';
  const scope = `${date.slice(0, 8)}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonicalRequest)].join('\n');
  const key = ['aws4_request'].reduce((k, part) => hmac(k, part),
    hmac(hmac(hmac(`AWS4${input.secretAccessKey}`, date.slice(0, 8)), input.region), input.service));
  const signature = createHmac('sha256', key).update(stringToSign).digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`;
}
