// A hard budget's hold counts what the provider can bill that the client may never see
// (issue 36): the output ceiling asked for, reasoning budgets, the model's own ceiling when none
// is asked, every choice, and media the provider fetches by URL or file id.
import { describe, expect, it } from 'vitest';
import { countLinkedMedia } from '../../src/spend/count-linked-media.js';
import { DEFAULT_OUTPUT_TOKENS, estimateWorstCase, LINKED_FILE_TOKENS, LINKED_IMAGE_TOKENS, worstCaseOutputTokens } from '../../src/spend/estimate-worst-case.js';

describe('the output a request can be billed for', () => {
  it.each([
    ['Chat max_completion_tokens (reasoning inside it)', { max_completion_tokens: 100_000, reasoning_effort: 'high' }, 100_000],
    ['Responses max_output_tokens', { max_output_tokens: 30_000, reasoning: { effort: 'high' } }, 30_000],
    ['Anthropic thinking inside max_tokens', { max_tokens: 2_000, thinking: { type: 'enabled', budget_tokens: 16_000 } }, 16_000],
    ['Bedrock thinking in additionalModelRequestFields', { inferenceConfig: { maxTokens: 1_000 }, additionalModelRequestFields: { thinking: { budget_tokens: 8_000 } } }, 8_000],
    ['GenAI thoughts billed outside maxOutputTokens', { generationConfig: { maxOutputTokens: 5_000, thinkingConfig: { thinkingBudget: 20_000 } } }, 25_000],
    ['every choice of n', { max_tokens: 1_000, n: 3 }, 3_000],
    ['GenAI candidateCount', { generationConfig: { maxOutputTokens: 1_000, candidateCount: 2 } }, 2_000],
    ['the largest of several spellings', { max_tokens: 10, max_completion_tokens: 5_000 }, 5_000],
  ])('%s', (_name, body, tokens) => {
    expect(worstCaseOutputTokens(body)).toBe(tokens);
  });

  it('no cap: the model\'s own ceiling when known, else the documented default', () => {
    expect(worstCaseOutputTokens({ messages: [] }, 128_000)).toBe(128_000);
    expect(worstCaseOutputTokens({ messages: [] })).toBe(DEFAULT_OUTPUT_TOKENS);
    expect(worstCaseOutputTokens({ generationConfig: { thinkingConfig: { thinkingBudget: 1_000 } } })).toBe(DEFAULT_OUTPUT_TOKENS + 1_000);
  });
});

describe('media sent by reference', () => {
  const url = 'https://example.test/cat.png';
  it('counts every dialect\'s linked images and files, not inline data', () => {
    const body = {
      messages: [{ role: 'user', content: [
        { type: 'image_url', image_url: { url } }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        { type: 'file', file: { file_id: 'file-1' } }, { type: 'input_image', image_url: url }, { type: 'input_image', file_id: 'file-2' },
        { type: 'input_file', file_url: 'https://example.test/a.pdf' }, { type: 'image', source: { type: 'url', url } },
        { type: 'image', source: { type: 'base64', data: 'AAAA' } }, { type: 'document', source: { type: 'file', file_id: 'file-3' } },
      ] }],
      contents: [{ parts: [{ fileData: { mimeType: 'image/jpeg', fileUri: 'gs://b/x.jpg' } }, { fileData: { mimeType: 'video/mp4', fileUri: 'gs://b/y.mp4' } }] }],
      bedrock: [{ image: { source: { s3Location: { uri: 's3://b/z.png' } } } }, { document: { source: { s3Location: { uri: 's3://b/d.pdf' } } } }],
    };
    expect(countLinkedMedia(body)).toEqual({ images: 6, files: 5 });
  });

  it('adds each at its allowance, at the input price', () => {
    const rates = { input: 1 / 1e6, output: 0 };
    const plain = estimateWorstCase(rates, 400, { max_tokens: 1 });
    const linked = estimateWorstCase(rates, 400, { max_tokens: 1, messages: [{ content: [{ type: 'image_url', image_url: { url } }, { type: 'input_file', file_id: 'f' }] }] });
    expect(linked - plain).toBe((LINKED_IMAGE_TOKENS + LINKED_FILE_TOKENS) * 1_000);
  });

  it('100 image URLs hold at least what a provider bills for them (1,000 tokens each)', () => {
    const body = { max_tokens: 16, messages: [{ role: 'user', content: Array.from({ length: 100 }, (_, index) => ({ type: 'image_url', image_url: { url: `${url}?${index}` } })) }] };
    const rates = { input: 1 / 1e6, output: 1 / 1e6 };
    expect(estimateWorstCase(rates, JSON.stringify(body).length, body)).toBeGreaterThanOrEqual(100 * 1_000 * 1_000);
  });
});
