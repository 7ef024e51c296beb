// What the prompt cache saved, per call and per group (docs/prompt-cache.md): the call priced
// without a cache minus its cost, at the dataset's own cache rates; each dialect's cache fields
// read into the record's tokens (OpenAI's cache_write_tokens included); the usage rows' ratio.
import { describe, expect, it } from 'vitest';
import { mapOpenAiShapedUsage, encodeOpenAiShapedUsage } from '../../src/formats/shared/openai-usage.js';
import { encodeResponsesUsage, mapResponsesUsage } from '../../src/formats/openai-responses/map-usage.js';
import { mapAnthropicUsage } from '../../src/formats/anthropic-messages/map-usage.js';
import { toAuditTokens } from '../../src/pipeline/relay/audit-tokens.js';
import { createPriceBook } from '../../src/spend/price-book.js';
import { cacheHitRatio } from '../../src/spend/cache-usage.js';
import { summariseUsage } from '../../src/spend/usage-report.js';
import { summarizeCacheUsage, withCacheColumns } from '../../src/admin/summarize-cache-usage.js';
import { summarizeUsage } from '../../src/admin/trail-reader.js';

const book = createPriceBook(() => []);
const sonnet = { provider: 'anthropic', kind: 'anthropic', model: 'claude-sonnet-4-5' };
const terra = { provider: 'openai', kind: 'openai', model: 'gpt-5.6-terra' };

describe('OpenAI cache writes (GPT-5.6 and later report cache_write_tokens)', () => {
  it('Chat: prompt_tokens_details.cache_write_tokens is the record\'s cache_write, and encodes back', () => {
    const usage = mapOpenAiShapedUsage({ prompt_tokens: 10_000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 6_000, cache_write_tokens: 3_000 } });
    expect(toAuditTokens(usage)).toMatchObject({ input: 10_000, cached_read: 6_000, cache_write: 3_000 });
    expect(encodeOpenAiShapedUsage(usage!).prompt_tokens_details).toEqual({ cached_tokens: 6_000, cache_write_tokens: 3_000 });
  });

  it('Responses: input_tokens_details.cache_write_tokens likewise', () => {
    const usage = mapResponsesUsage({ input_tokens: 10_000, output_tokens: 100, input_tokens_details: { cached_tokens: 6_000, cache_write_tokens: 3_000 } });
    expect(usage).toMatchObject({ inputTokens: 10_000, cachedReadTokens: 6_000, cacheWriteTokens: 3_000 });
    expect(encodeResponsesUsage(usage!).input_tokens_details).toEqual({ cached_tokens: 6_000, cache_write_tokens: 3_000 });
  });

  it('a GPT-5.6 call\'s writes cost 1.25× input: 1000×2000 + 6000×200 + 3000×2500 + 100×12000 nano-USD', () => {
    const tokens = toAuditTokens(mapOpenAiShapedUsage({ prompt_tokens: 10_000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 6_000, cache_write_tokens: 3_000 } }))!;
    expect(book.price(terra, tokens).nano_usd).toBe(11_900_000);
  });

  it('an older model\'s zero writes stay out of the record', () => {
    expect(mapOpenAiShapedUsage({ prompt_tokens: 10, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 } })?.cacheWriteTokens).toBeUndefined();
  });
});

describe('what the cache saved (price book: cost.cache_saved_nano_usd)', () => {
  const tokens = toAuditTokens(mapAnthropicUsage({ input_tokens: 200, cache_read_input_tokens: 8_000, cache_creation_input_tokens: 1_000, cache_creation: { ephemeral_5m_input_tokens: 400, ephemeral_1h_input_tokens: 600 }, output_tokens: 50 }))!;

  it('Anthropic: reads × (3000 − 300) − 5-minute writes × (3750 − 3000) − 1-hour writes × (6000 − 3000)', () => {
    expect(book.price(sonnet, tokens)).toEqual({ nano_usd: 8_850_000, price: 'dataset', priced_as: 'claude-sonnet-4-5', cache_saved_nano_usd: 8_000 * 2_700 - 400 * 750 - 600 * 3_000 });
  });

  it('a miss (writes only) saves a negative amount: the write premium', () => {
    expect(book.price(sonnet, { input: 5_000, output: 10, cache_write: 4_000 }).cache_saved_nano_usd).toBe(-4_000 * 750);
  });

  it('no cache tokens, or an unknown price: no saving (never 0 for unknown)', () => {
    expect(book.price(sonnet, { input: 10, output: 1 })).not.toHaveProperty('cache_saved_nano_usd');
    expect(book.price({ provider: 'openai', kind: 'openai', model: 'gpt-nobody-prices-this' }, tokens)).toEqual({ price: 'unknown' });
  });

  // The saving is worked out from the rates in force, not by pricing the call twice: it must equal
  // the price of the same tokens without the cache minus the cost, tiers (chosen by the whole input) included.
  const targets = [sonnet, terra, { provider: 'openai', kind: 'openai', model: 'gpt-4o' }, { provider: 'gemini', kind: 'gemini', model: 'gemini-2.5-pro' },
    { provider: 'bedrock', kind: 'bedrock', model: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0' }, { provider: 'anthropic', kind: 'anthropic', model: 'claude-opus-4-1' }];
  const usages = [
    { input: 9_200, output: 50, cached_read: 8_000, cache_write: 1_000 },
    { input: 9_200, output: 50, cached_read: 8_000, cache_write: 1_000, cache_write_1h: 600 },
    { input: 300_000, output: 500, cached_read: 250_000, cache_write: 40_000 },
    { input: 4_000, output: 5, cache_write: 3_500 },
  ];
  it.each(targets.flatMap((target) => usages.map((usage) => [target.model, target, usage] as const)))('%s %j: price without the cache − cost', (_model, target, usage) => {
    const cost = book.price(target, usage);
    const plain = book.price(target, { input: usage.input, output: usage.output });
    expect(cost.nano_usd).toBeDefined();
    expect(Math.abs(cost.cache_saved_nano_usd! - (plain.nano_usd! - cost.nano_usd!))).toBeLessThanOrEqual(1);
  });
});

const records = [
  { ts: '2026-11-20T10:00:00.000Z', team: 'eng', session: 's1', tokens: { input: 1_000, cached_read: 800, cache_write: 100 }, cost: { nano_usd: 50, price: 'dataset' as const, cache_saved_nano_usd: 700 }, outcome: ['ok'] },
  { ts: '2026-11-20T10:01:00.000Z', team: 'eng', session: 's1', tokens: { input: 1_000, cached_read: 0, cache_write: 900 }, cost: { nano_usd: 90, price: 'dataset' as const, cache_saved_nano_usd: -200 }, outcome: ['ok', 'cache_break'] },
  { ts: '2026-11-20T10:02:00.000Z', team: 'ops', session: 's2', tokens: { input: 500 }, cost: { nano_usd: 10, price: 'dataset' as const }, outcome: ['ok'] },
];

describe('the cache columns of a usage report', () => {
  it('gw usage: reads, writes, ratio over all input, saving (a miss subtracts), breaks', async () => {
    const rows = await summariseUsage(records, 'session');
    expect(rows.find((row) => row.group === 's1')).toMatchObject({ cache_read_tokens: 800, cache_write_tokens: 1_000, cache_hit_ratio: 0.4, cache_saved_nano_usd: 500, cache_breaks: 1, cached_read_tokens: 800 });
    expect(rows.find((row) => row.group === 's2')).toMatchObject({ cache_read_tokens: 0, cache_hit_ratio: 0, cache_saved_nano_usd: 0, cache_breaks: 0 });
  });

  it('the admin report: the same fields as gw usage for the same records, and a by-session table', async () => {
    const cli = await summariseUsage(records, 'team');
    const admin = withCacheColumns(summarizeUsage(records.map((record, seq) => ({ ...record, seq })), 'team'), summarizeCacheUsage(records.map((record, seq) => ({ ...record, seq })), 'team'));
    for (const group of admin.groups) {
      const row = cli.find((entry) => entry.group === group.group)!;
      expect(group).toMatchObject({ cache_read_tokens: row.cache_read_tokens, cache_write_tokens: row.cache_write_tokens, cache_hit_ratio: row.cache_hit_ratio, cache_saved_nano_usd: row.cache_saved_nano_usd, cache_breaks: row.cache_breaks });
    }
    expect(summarizeCacheUsage(records.map((record, seq) => ({ ...record, seq })), 'session')[0]).toMatchObject({ group: 's1', requests: 2, input_tokens: 2_000 });
  });

  it('the ratio: null without input, four decimals', () => {
    expect(cacheHitRatio(0, 0)).toBeNull();
    expect(cacheHitRatio(8_000, 9_200)).toBe(0.8696);
  });
});
