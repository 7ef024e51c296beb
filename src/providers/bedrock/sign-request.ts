// AWS Signature Version 4 for Bedrock runtime calls. SigV4 covers the body's hash, so it
// cannot be a static auth header: the caller signs each request once its body is final.
// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
// Paths are escaped again for the canonical request (model ids with ':' are `%3A` in the
// URL and `%253A` in the signature), as for every AWS service but S3.
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignBedrockRequestInput {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array;
  region: string;
  credentials: AwsCredentials;
  /** The signing time (injected so signatures are reproducible); now when absent. */
  now?: Date;
  /** The signing service name; `bedrock` for the runtime API. */
  service?: string;
  /** Whether to add x-amz-content-sha256 (the AWS SDKs do); default true. */
  contentSha256Header?: boolean;
}

/**
 * The request's headers plus `host`, `x-amz-date`, `x-amz-security-token` (with a session
 * token), `x-amz-content-sha256` and `authorization`. Header names come back lower-case.
 * `host` is what the HTTP client would send anyway; a client that refuses to set it may drop it.
 */
export async function signBedrockRequest(input: SignBedrockRequestInput): Promise<Record<string, string>> {
  const url = new URL(input.url);
  const signer = new SignatureV4({
    credentials: input.credentials,
    region: input.region,
    service: input.service ?? 'bedrock',
    sha256: Sha256,
    applyChecksum: input.contentSha256Header ?? true,
  });
  const headers: Record<string, string> = { host: url.host };
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value;
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  const signed = await signer.sign({
    method: input.method.toUpperCase(),
    protocol: url.protocol,
    hostname: url.hostname,
    ...(url.port === '' ? {} : { port: Number(url.port) }),
    path: url.pathname,
    query,
    headers,
    body: input.body,
  }, { signingDate: input.now ?? new Date() });
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) out[name.toLowerCase()] = String(value);
  return out;
}
