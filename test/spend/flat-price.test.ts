// The price book's fast path (src/spend/flat-price.ts) must give the very cost calcPrice gives:
// every flat-priced model gw can price from the dataset, under token mixes with cache reads
// and writes, reasoning, nothing at all, one token and large counts, plus seeded random ones.
import { calcPrice, findProvider, type Usage } from '@pydantic/genai-prices';
import { describe, expect, it } from 'vitest';
import type { AuditTokens } from '../../src/audit/record.js';
import { flatPrices, priceTextTokens } from '../../src/spend/flat-price.js';
import { createPriceBook, NANOS_PER_USD } from '../../src/spend/price-book.js';
import type { PricedTarget } from '../../src/spend/price-ids.js';

/** gw's way to reach each dataset provider (src/spend/price-ids.ts). */
const TARGETS: Array<{ providerId: string; target: Omit<PricedTarget, 'model'> }> = [
  ...['openai', 'anthropic', 'azure', 'mistral', 'cohere'].map((kind) => ({ providerId: kind, target: { provider: kind, kind } })),
  { providerId: 'google', target: { provider: 'gemini', kind: 'gemini' } },
  { providerId: 'aws', target: { provider: 'bedrock', kind: 'bedrock' } },
  ...['groq', 'deepseek', 'together', 'fireworks'].map((preset) => ({ providerId: preset, target: { provider: preset, kind: 'openai-compatible', preset } })),
];

const FIXED_MIXES: AuditTokens[] = [
  { input: 0, output: 0 },
  { input: 1, output: 1 },
  { input: 1234, output: 567 },
  { input: 3100, output: 400, cached_read: 2000 },
  { input: 3100, output: 400, cache_write: 1000 },
  { input: 3100, output: 400, cached_read: 2000, cache_write: 1000 },
  { input: 5000, output: 3000, reasoning: 2500 },
  { input: 9000, output: 3000, cached_read: 8000, reasoning: 2999 },
  { input: 2000, output: 0, cached_read: 2000 },
  { input: 180_000, output: 32_000, cached_read: 150_000, cache_write: 20_000, reasoning: 30_000 },
];

/** A seeded generator, so a failure names a mix that can be run again. */
function* randomMixes(count: number, seed = 16): Generator<AuditTokens> {
  let state = seed;
  const next = (limit: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % limit;
  };
  for (let index = 0; index < count; index += 1) {
    const input = next(200_000);
    const cached_read = next(3) === 0 ? 0 : next(input + 1);
    const cache_write = next(3) === 0 ? 0 : next(input - cached_read + 1);
    const output = next(40_000);
    const reasoning = next(2) === 0 ? 0 : next(output + 1);
    yield { input, output, ...(cached_read ? { cached_read } : {}), ...(cache_write ? { cache_write } : {}), ...(reasoning ? { reasoning } : {}) };
  }
}

/** The library's usage, written here apart from the price book's own mapping. */
function libraryUsage(tokens: AuditTokens): Usage {
  return { input_tokens: tokens.input, output_tokens: tokens.output, cache_read_tokens: tokens.cached_read, cache_write_tokens: tokens.cache_write };
}

const nanos = (usd: number) => Math.round(usd * NANOS_PER_USD);

describe('flat-price fast path', () => {
  const book = createPriceBook(() => []);
  const mixes = [...FIXED_MIXES, ...randomMixes(40)];

  it('equals calcPrice for every flat-priced dataset model and token mix', () => {
    let fastChecks = 0;
    let bookChecks = 0;
    const flatModels = new Set<string>();
    const mismatches: string[] = [];
    for (const { providerId, target } of TARGETS) {
      const provider = findProvider({ providerId });
      expect(provider, providerId).toBeDefined();
      for (const model of provider!.models) {
        const flat = flatPrices(model.prices);
        if (!flat) continue;
        flatModels.add(`${providerId}/${model.id}`);
        // The library's arithmetic on this very model (some ids do not match their own pattern, e.g. ft:gpt-4o).
        const alone = { ...provider!, models: [{ ...model, match: { equals: model.id } }] };
        const bookFindsIt = calcPrice({ input_tokens: 0, output_tokens: 0 }, model.id, { providerId })?.model.id === model.id;
        for (const tokens of mixes) {
          const fast = priceTextTokens(flat, tokens);
          let reference: number | null;
          try {
            reference = calcPrice(libraryUsage(tokens), model.id, { provider: alone })?.total_price ?? null;
          } catch {
            reference = null; // the library refuses the mix (a cache price missing): so must the fast path
          }
          if (fast === null) {
            // Declined: the book then asks calcPrice, so only a mix the library can price matters here.
            continue;
          }
          fastChecks += 1;
          if (reference === null || nanos(fast) !== nanos(reference)) mismatches.push(`${providerId}/${model.id} ${JSON.stringify(tokens)}: fast ${fast}, calcPrice ${reference}`);
          // …and through the book, as a call is priced.
          if (!bookFindsIt) continue;
          bookChecks += 1;
          const booked = book.price({ ...target, model: model.id }, tokens);
          if (booked.nano_usd !== undefined && booked.nano_usd !== nanos(reference ?? Number.NaN)) {
            mismatches.push(`book ${providerId}/${model.id} ${JSON.stringify(tokens)}: ${booked.nano_usd} vs ${reference}`);
          }
        }
      }
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
    // The comparison is only worth something if the fast path really ran, over many models.
    expect(flatModels.size).toBeGreaterThan(100);
    expect(fastChecks).toBeGreaterThan(100 * mixes.length * 0.8);
    expect(bookChecks).toBeGreaterThan(100 * mixes.length * 0.8);
  });

  it('leaves to calcPrice what it cannot price: tiers, dated prices, audio, 1-hour cache writes, a missing cache price', () => {
    expect(flatPrices({ input_mtok: { base: 1, tiers: [{ start: 200_000, price: 2 }] }, output_mtok: 4 })).toBeNull();
    expect(flatPrices([{ prices: { input_mtok: 1, output_mtok: 2 } }] as never)).toBeNull();
    expect(flatPrices({ input_mtok: 1, output_mtok: 2, requests_kcount: 5 })).toBeNull();
    const flat = flatPrices({ input_mtok: 1, output_mtok: 2 })!;
    expect(priceTextTokens(flat, { input: 10, output: 10, audio_input: 5 })).toBeNull();
    expect(priceTextTokens(flat, { input: 10, output: 10, cache_write: 5, cache_write_1h: 5 })).toBeNull();
    expect(priceTextTokens(flat, { input: 10, output: 10, cached_read: 5 })).toBeNull();
    expect(priceTextTokens(flat, { input: 10, output: 10 })).toBeCloseTo(30 / 1e6, 15);
  });
});
