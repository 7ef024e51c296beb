// SigV4 against AWS's own test suite vector and against an independent node:crypto derivation.
import { describe, expect, it } from 'vitest';
import { signBedrockRequest } from '../../../src/providers/bedrock/sign-request.js';
import { deriveAuthorization, sha256 } from './derive-sigv4.js';

// The "get-vanilla" case of the AWS SigV4 test suite (aws4_testsuite, also in botocore's tests):
// AKIDEXAMPLE / wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, 20150830T123600Z, us-east-1, service "service".
const EXAMPLE = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const EXAMPLE_TIME = new Date('2015-08-30T12:36:00Z');

describe('signBedrockRequest', () => {
  it('reproduces the AWS test suite get-vanilla signature', async () => {
    const headers = await signBedrockRequest({
      url: 'https://example.amazonaws.com/', method: 'GET', headers: {}, body: '', region: 'us-east-1',
      credentials: EXAMPLE, now: EXAMPLE_TIME, service: 'service', contentSha256Header: false,
    });
    expect(headers['x-amz-date']).toBe('20150830T123600Z');
    expect(headers.authorization).toBe('AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, '
      + 'SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
  });

  it('signs a Converse POST as an independent SigV4 derivation does, session token and escaped model id included', async () => {
    const body = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] });
    const url = 'https://bedrock-runtime.eu-west-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse';
    const credentials = { ...EXAMPLE, sessionToken: 'session-token-example' };
    const headers = await signBedrockRequest({
      url, method: 'POST', headers: { 'Content-Type': 'application/json' }, body, region: 'eu-west-1', credentials, now: EXAMPLE_TIME,
    });
    expect(headers['x-amz-security-token']).toBe('session-token-example');
    expect(headers['x-amz-content-sha256']).toBe(sha256(body));
    expect(headers.authorization).toBe(deriveAuthorization({ url, body, headers, region: 'eu-west-1', service: 'bedrock', ...credentials }));
  });
});
