// The passthrough path read from the raw request target: dot segments and encoded
// separators are refused, everything else is kept as the client encoded it.
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.js';
import { readPassthroughPath } from '../../src/pipeline/decode/passthrough-path.js';

function refusal(target: string): GatewayError {
  try {
    readPassthroughPath(target);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error(`${target} was not refused`);
}

describe('readPassthroughPath', () => {
  it.each([
    ['/openai_passthrough/v1/files', '/v1/files'],
    ['/openai_passthrough/v1/files?purpose=batch', '/v1/files'],
    ['/genai_passthrough/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', '/v1beta/models/gemini-2.5-flash:streamGenerateContent'],
    ['/openai_passthrough/v1/files/file%20abc', '/v1/files/file%20abc'],
    ['/openai_passthrough/v1/a..b/.well', '/v1/a..b/.well'],
    ['/openai_passthrough/', '/'],
  ])('%s forwards %s', (target, rest) => {
    expect(readPassthroughPath(target)).toBe(rest);
  });

  it.each([
    '/openai_passthrough/v1/../admin',
    '/openai_passthrough/../secret',
    '/openai_passthrough/v1/./files',
    '/openai_passthrough/v1/%2e%2e/admin',
    '/openai_passthrough/v1/%2E%2e/admin',
    '/openai_passthrough/v1/.%2E/admin',
    '/openai_passthrough/v1/files%2F..%2Fadmin',
    '/openai_passthrough/v1/files%2fx',
    '/openai_passthrough/v1/files%3Fx=1',
    '/openai_passthrough/v1/files%3fx=1',
    '/openai_passthrough/v1/files%23frag',
    '/openai_passthrough/v1/files%5Cadmin',
    '/openai_passthrough/v1/files\\admin',
    '/openai_passthrough/v1/files%252Fadmin',
    '/openai_passthrough/v1/%252e%252e/admin',
    '/openai_passthrough/v1/files%00',
    '/openai_passthrough/v1/files%zz',
    '/anthropic_passthrough/v1/..?beta=true',
  ])('%s is refused with GW_ERR_REQUEST_INVALID', (target) => {
    const error = refusal(target);
    expect(error.code).toBe('GW_ERR_REQUEST_INVALID');
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/passthrough path is refused/);
  });

  it('a "." or ".." inside the query is not the path and is kept', () => {
    expect(readPassthroughPath('/openai_passthrough/v1/files?after=..%2F')).toBe('/v1/files');
  });
});
