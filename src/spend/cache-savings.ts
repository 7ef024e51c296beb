// What a provider's prompt cache saved on one call, in nano-USD: the same call priced as if it
// had no cache (every cache read and cache write a plain input token) minus what it cost, that is
//   reads × (input rate − read rate) − writes × (write rate − input rate)
// Cache reads are cheaper than input, writes dearer (Anthropic 1.25× for 5 minutes, 2× for an
// hour; GPT-5.6 and later 1.25×), so a call that only wrote shows a negative saving: a session
// that keeps missing costs more than one that never cached. The rates are those the call was
// priced at (the price book hands in the model's prices in force): a tier is chosen by the
// call's whole input, the same with or without the cache, so the difference is exact without
// pricing the call twice (calcPrice takes ~0.1 ms).
import type { ModelPrice } from '@pydantic/genai-prices';
import type { AuditTokens } from '../audit/record.js';

/** True when the call read or wrote any cache tokens (the only calls with a saving to compute). */
export function usedCache(tokens: AuditTokens | null | undefined): boolean {
  return (tokens?.cached_read ?? 0) > 0 || (tokens?.cache_write ?? 0) > 0;
}

/**
 * The saving in nano-USD at these prices; undefined without an input price (nothing to compare).
 * A cache price the model lacks is charged as its parent (a read or write as input, a 1-hour
 * write as a write), as the price library does.
 */
export function cacheSavingAt(prices: ModelPrice, tokens: AuditTokens): number | undefined {
  const input = tokens.input ?? 0;
  const inputRate = rateOf(prices.input_mtok, input);
  if (inputRate === undefined) return undefined;
  const readRate = rateOf(prices.cache_read_mtok, input) ?? inputRate;
  const writeRate = rateOf(prices.cache_write_mtok, input) ?? inputRate;
  const write5mRate = rateOf(prices.cache_write_5m_mtok, input) ?? writeRate;
  const write1hRate = rateOf(prices.cache_write_1h_mtok, input) ?? writeRate;
  const reads = tokens.cached_read ?? 0;
  const writes1h = tokens.cache_write_1h ?? 0;
  const writes5m = Math.max(0, (tokens.cache_write ?? 0) - writes1h);
  // USD per million tokens × tokens = micro-USD; × 1,000 = nano-USD.
  const saved = reads * (inputRate - readRate) - writes5m * (write5mRate - inputRate) - writes1h * (write1hRate - inputRate);
  return Math.round(saved * 1_000);
}

/** A plain price, or a tiered one's at this many input tokens (a tier applies above its start, as the library rules). */
function rateOf(price: ModelPrice[string], inputTokens: number): number | undefined {
  if (typeof price === 'number') return price;
  if (price === undefined) return undefined;
  let rate = price.base;
  for (const tier of price.tiers) if (inputTokens > tier.start) rate = tier.price;
  return rate;
}
