// Each dialect's usage, JSON and streamed, normalises to the same counts and prices to the
// cost worked out by hand (test/spend/usage-fixtures.ts); translated usage keeps its counts.
import { describe, expect, it } from 'vitest';
import { codecFor } from '../../src/formats/codec-registry.js';
import { toAuditTokens } from '../../src/pipeline/relay/audit-tokens.js';
import { createPriceBook } from '../../src/spend/price-book.js';
import { USAGE_FIXTURES } from './usage-fixtures.js';

const book = createPriceBook(() => []);

describe('usage normalised per dialect', () => {
  for (const fixture of USAGE_FIXTURES) {
    it(`${fixture.name}: JSON and stream give the same counts`, () => {
      const codec = codecFor(fixture.codec);
      expect(codec.readUsage(fixture.json)).toEqual(fixture.usage);
      const reader = codec.createStreamUsageReader();
      for (const data of fixture.stream) reader.read(data);
      expect(reader.usage()).toEqual(fixture.usage);
    });

    it(`${fixture.name}: costs what the price page says`, () => {
      const cost = book.price(fixture.target, toAuditTokens(fixture.usage)!);
      expect(cost.price).toBe('dataset');
      expect(cost.nano_usd).toBe(fixture.nanoUsd);
    });
  }

  it('Anthropic stream: cache tokens in message_start and message_delta are not counted twice', () => {
    const reader = codecFor('anthropic-messages').createStreamUsageReader();
    const anthropic = USAGE_FIXTURES.find((fixture) => fixture.codec === 'anthropic-messages')!;
    for (const data of anthropic.stream) reader.read(data);
    expect(reader.usage()?.cachedReadTokens).toBe(2000);
    expect(reader.usage()?.inputTokens).toBe(3100);
  });

  it('Gemini tool-use prompt tokens are input (billed as such)', () => {
    expect(codecFor('google-genai').readUsage({ usageMetadata: { promptTokenCount: 100, toolUsePromptTokenCount: 50, candidatesTokenCount: 10, totalTokenCount: 160 } }))
      .toEqual({ inputTokens: 150, outputTokens: 10, totalTokens: 160 });
  });

  it('Bedrock Converse: inputTokens excludes cache reads and writes, which are added back', () => {
    expect(codecFor('bedrock-converse').readUsage({ usage: { inputTokens: 10, cacheReadInputTokens: 90, cacheWriteInputTokens: 20, outputTokens: 5, totalTokens: 125 } }))
      .toEqual({ inputTokens: 120, outputTokens: 5, cachedReadTokens: 90, cacheWriteTokens: 20, totalTokens: 125 });
  });
});

describe('translated usage', () => {
  // The provider's answer decoded to canonical and encoded for a client of another dialect:
  // the client reads the same counts its own dialect can express.
  it('Anthropic cache and 1-hour writes survive Anthropic → canonical → Anthropic', () => {
    const anthropic = codecFor('anthropic-messages');
    const fixture = USAGE_FIXTURES.find((entry) => entry.codec === 'anthropic-messages')!;
    const body = { id: 'm1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-20250514', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', usage: (fixture.json as { usage: unknown }).usage };
    const canonical = anthropic.decodeResponse(body).value;
    expect(canonical.usage).toEqual(fixture.usage);
    const again = anthropic.encodeResponse(canonical, { request: undefined } as never);
    expect(anthropic.readUsage(again)).toEqual(fixture.usage);
  });

  it('OpenAI usage read by an Anthropic client: the same input, cached and output counts', () => {
    const chat = codecFor('openai-chat');
    const anthropic = codecFor('anthropic-messages');
    const fixture = USAGE_FIXTURES.find((entry) => entry.codec === 'openai-chat')!;
    const body = { id: 'c1', object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }], usage: (fixture.json as { usage: unknown }).usage };
    const canonical = chat.decodeResponse(body).value;
    const encoded = anthropic.encodeResponse(canonical, { request: undefined } as never);
    expect(anthropic.readUsage(encoded)).toMatchObject({ inputTokens: 2000, outputTokens: 500, cachedReadTokens: 1200 });
  });
});

describe('price book', () => {
  const tokens = { input: 1000, output: 100 };

  it('an unknown model is priced unknown, never 0', () => {
    expect(book.price({ provider: 'openai', kind: 'openai', model: 'no-such-model-xyz' }, tokens)).toEqual({ price: 'unknown' });
    expect(book.price({ provider: 'local', kind: 'openai-compatible', preset: 'ollama', model: 'llama3' }, tokens)).toEqual({ price: 'unknown' });
    expect(book.rates({ provider: 'mock', kind: 'mock', model: 'mock-model' })).toBeNull();
  });

  it('a local override wins over the dataset and prices self-hosted models', () => {
    const overridden = createPriceBook(() => [
      { provider: 'openai', model: 'gpt-4o', input_mtok: 1, output_mtok: 2 },
      { provider: 'local', model: 'llama3', input_mtok: 0.1, output_mtok: 0.2, cache_read_mtok: 0.01 },
    ]);
    // 1,000 × 1 + 100 × 2 = 1,200 µ$ per million → 1,200,000 nano-USD
    expect(overridden.price({ provider: 'openai', kind: 'openai', model: 'gpt-4o' }, tokens)).toEqual({ nano_usd: 1_200_000, price: 'override', priced_as: 'gpt-4o' });
    // 500 × 0.1 + 500 cached × 0.01 + 100 × 0.2 = 50 + 5 + 20 = 75 → 75,000 nano-USD
    expect(overridden.price({ provider: 'local', kind: 'openai-compatible', preset: 'ollama', model: 'llama3' }, { input: 1000, cached_read: 500, output: 100 }).nano_usd).toBe(75_000);
    expect(overridden.rates({ provider: 'local', kind: 'openai-compatible', model: 'llama3' })).toEqual({ input: 0.1 / 1e6, output: 0.2 / 1e6 });
  });

  it('tiered prices: rates give the highest tier (worst case); the cost applies the tier the prompt reached', () => {
    const target = { provider: 'gemini', kind: 'gemini', model: 'gemini-2.5-pro' };
    // https://ai.google.dev/gemini-api/docs/pricing: 1.25 in / 10 out up to 200k prompt tokens, 2.50 / 15 above
    expect(book.rates(target)).toEqual({ input: 2.5 / 1e6, output: 15 / 1e6 });
    expect(book.price(target, { input: 1000, output: 1000 }).nano_usd).toBe(11_250_000);
    expect(book.price(target, { input: 300_000, output: 1000 }).nano_usd).toBe(765_000_000);
  });

  it('Vertex AI ids are priced, Claude with its @version and Gemini alike', () => {
    // Claude Sonnet 4.5 at 3 / 15 per million: 1,000 × 3 + 100 × 15 = 4,500 µ$ per million → 4,500,000 nano-USD
    expect(book.price({ provider: 'vertex', kind: 'vertex', model: 'claude-sonnet-4-5@20250929' }, tokens)).toMatchObject({ nano_usd: 4_500_000, price: 'dataset', priced_as: 'claude-sonnet-4-5' });
    expect(book.price({ provider: 'vertex', kind: 'vertex', model: 'gemini-2.5-flash' }, tokens)).toMatchObject({ price: 'dataset', priced_as: 'gemini-2.5-flash' });
  });

  it('a call through another gw prices the far side\'s provider/model', () => {
    expect(book.price({ provider: 'hub', kind: 'gateway', model: 'openai/gpt-4o' }, tokens).nano_usd).toBe(3_500_000);
  });
});
