import { describe, expect, it } from 'vitest';
import { bedrockAdapter } from '../../../src/providers/bedrock/adapter.js';
import { readBedrockConfig, regionFromBaseUrl } from '../../../src/providers/bedrock/read-bedrock-config.js';
import type { ProviderConfig } from '../../../src/providers/provider-adapter.js';

describe('readBedrockConfig', () => {
  it('is null when nothing configures Bedrock', () => {
    expect(readBedrockConfig({ AWS_REGION: 'eu-west-1' })).toBeNull();
  });

  it('reads SigV4 credentials and the region, AWS_REGION first', () => {
    expect(readBedrockConfig({ AWS_REGION: 'eu-west-1', AWS_DEFAULT_REGION: 'us-west-2', AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'tok' })).toEqual({
      region: 'eu-west-1', regionFrom: 'AWS_REGION', baseUrl: 'https://bedrock-runtime.eu-west-1.amazonaws.com', baseUrlFrom: 'default',
      auth: { type: 'sigv4', credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: 'tok' }, from: 'env:AWS_ACCESS_KEY_ID' },
    });
  });

  it('prefers a Bedrock API key, falls back to AWS_DEFAULT_REGION and honours BEDROCK_BASE_URL', () => {
    const config = readBedrockConfig({ AWS_DEFAULT_REGION: 'us-west-2', AWS_BEARER_TOKEN_BEDROCK: 'bedrock-key', AWS_ACCESS_KEY_ID: 'AKID', AWS_SECRET_ACCESS_KEY: 's', BEDROCK_BASE_URL: 'http://127.0.0.1:9000' });
    expect(config).toMatchObject({ region: 'us-west-2', regionFrom: 'AWS_DEFAULT_REGION', baseUrl: 'http://127.0.0.1:9000', auth: { type: 'bearer', token: 'bedrock-key' } });
  });

  it('defaults the region to us-east-1 and needs both access key parts', () => {
    expect(readBedrockConfig({ AWS_ACCESS_KEY_ID: 'AKID', BEDROCK_BASE_URL: 'http://x' })).toMatchObject({ region: 'us-east-1', auth: { type: 'none' } });
  });

  it('finds the region in a runtime URL', () => {
    expect(regionFromBaseUrl('https://bedrock-runtime.ap-south-1.amazonaws.com')).toBe('ap-south-1');
    expect(regionFromBaseUrl('http://127.0.0.1:9000')).toBeUndefined();
  });
});

describe('bedrockAdapter', () => {
  const config: ProviderConfig = { name: 'bedrock', kind: 'bedrock', baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com/', apiKey: 'k', source: 'environment' };

  it('puts the escaped model id in the path', () => {
    expect(bedrockAdapter.urlFor(config, { operation: 'bedrock.converse', model: 'anthropic.claude-3-haiku-20240307-v1:0', stream: false }))
      .toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse');
    expect(bedrockAdapter.urlFor(config, { operation: 'bedrock.converse_stream', model: 'us.amazon.nova-pro-v1:0', stream: true }))
      .toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/us.amazon.nova-pro-v1%3A0/converse-stream');
    expect(bedrockAdapter.urlFor(config, { operation: 'chat.completions', model: 'x', stream: false })).toBeNull();
  });

  it('sends an API key as a bearer token and nothing for SigV4 instances', () => {
    expect(bedrockAdapter.authHeaders(config)).toEqual({ authorization: 'Bearer k' });
    expect(bedrockAdapter.authHeaders({ ...config, apiKey: null })).toEqual({});
    expect(bedrockAdapter.modelInBody(config)).toBe(false);
  });
});
