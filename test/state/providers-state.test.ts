import { describe, expect, it } from 'vitest';
import { parseStateText } from '../../src/state/parse-state.js';
import { emptyState } from '../../src/state/schema.js';

describe('providers and aliases in state.json', () => {
  it('defaults to none', () => {
    expect(emptyState()).toMatchObject({ providers: [], aliases: {} });
    expect(parseStateText('{"version":1}', 'state.json')).toMatchObject({ providers: [], aliases: {} });
  });

  it('accepts valid entries and keeps unknown fields', () => {
    const text = JSON.stringify({
      providers: [{ name: 'local', kind: 'openai-compatible', base_url: 'http://localhost:8000/v1', api_key: 'env:K', preset: 'vllm', extra: 1 }],
      aliases: { fast: 'local/qwen' },
    });
    const state = parseStateText(text, 'state.json');
    expect(state.providers).toEqual([{ name: 'local', kind: 'openai-compatible', base_url: 'http://localhost:8000/v1', api_key: 'env:K', preset: 'vllm', extra: 1 }]);
    expect(state.aliases).toEqual({ fast: 'local/qwen' });
  });

  it.each([
    [{ providers: [{ name: 'x', kind: 'watsonx', base_url: 'http://a' }] }, /providers\[0\] kind "watsonx" is not a provider kind/],
    [{ providers: [{ name: 'x', kind: 'openai' }] }, /providers\[0\] has no base_url/],
    [{ providers: [{ name: 'x', kind: 'openai', base_url: 'http://a', api_key: 5 }] }, /api_key is not a string or null/],
    [{ providers: {} }, /providers is not a list/],
    [{ aliases: { fast: 'no-slash' } }, /aliases\.fast is not "provider\/model"/],
    [{ aliases: [] }, /aliases is not an object/],
  ])('refuses %j', (content, message) => {
    expect(() => parseStateText(JSON.stringify(content), 'state.json')).toThrow(message);
  });
});
