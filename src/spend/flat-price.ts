// The fast path of the price book: most models charge plain per-million-token prices, and a
// call with only text, cache and reasoning tokens is then a sum of four products. Anything
// else (tiers, dated prices, per-request fees, audio, 1-hour cache writes) is left to calcPrice.
import type { ModelInfo, ModelPrice } from '@pydantic/genai-prices';
import type { AuditTokens } from '../audit/record.js';

/**
 * Price keys that charge nothing for a call with only text, cache and reasoning tokens. A model
 * whose prices are all plain numbers under these keys is priced by priceTextTokens (~0.1 µs);
 * any other (tiers, dates, per-request fees, audio or 1-hour writes in the usage) goes through
 * calcPrice (~10 µs). test/spend/flat-price.test.ts checks the two agree
 * on every flat-priced model of the dataset.
 */
const TEXT_ONLY_KEYS = new Set(['input_mtok', 'output_mtok', 'cache_read_mtok', 'cache_write_mtok', 'cache_write_1h_mtok', 'input_audio_mtok', 'output_audio_mtok', 'cache_audio_read_mtok', 'web_searches_kcount', 'storage_searches_kcount']);

export function flatPrices(prices: ModelInfo['prices'] | undefined): ModelPrice | null {
  if (!prices || Array.isArray(prices)) return null;
  for (const [key, value] of Object.entries(prices)) if (!TEXT_ONLY_KEYS.has(key) || (value !== undefined && typeof value !== 'number')) return null;
  return typeof prices.input_mtok === 'number' && typeof prices.output_mtok === 'number' ? prices : null;
}

/**
 * USD for text tokens at flat prices; null when the usage needs what only calcPrice knows.
 * Each term is `price × tokens / 1e6`, input terms then output terms summed in the order of
 * the price keys, exactly as calcPrice does: a different order may differ in the last bit,
 * enough to round a half nano-USD the other way.
 */
export function priceTextTokens(prices: ModelPrice, tokens: AuditTokens): number | null {
  if (tokens.audio_input || tokens.audio_output || tokens.image_input || tokens.cache_write_1h) return null;
  const read = tokens.cached_read ?? 0;
  const write = tokens.cache_write ?? 0;
  const counts: Record<string, number> = { input_mtok: (tokens.input ?? 0) - read - write, cache_read_mtok: read, cache_write_mtok: write };
  if (counts.input_mtok! < 0 || (read > 0 && prices.cache_read_mtok === undefined) || (write > 0 && prices.cache_write_mtok === undefined)) return null;
  let input = 0;
  for (const [key, price] of Object.entries(prices)) if (typeof price === 'number' && counts[key]) input += price * counts[key] / 1e6;
  const output = tokens.output ? (prices.output_mtok as number) * tokens.output / 1e6 : 0;
  return input + output;
}
