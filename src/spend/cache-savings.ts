// What a provider's prompt cache saved on one call, in nano-USD: the same call priced as if
// it had no cache (every cache read and cache write a plain input token) minus what it cost.
// Cache reads are cheaper than input, writes dearer (Anthropic 1.25× for 5 minutes, 2× for
// an hour; GPT-5.6 and later 1.25×), so a call that only wrote shows a negative saving: a
// session that keeps missing costs more than one that never cached. Pricing the counterfactual
// through the same price book keeps tiers, dated prices and overrides consistent with the cost.
import type { AuditCost, AuditTokens } from '../audit/record.js';
import type { PriceBook } from './price-book.js';
import type { PricedTarget } from './price-ids.js';

/** True when the call read or wrote any cache tokens (the only calls with a saving to compute). */
export function usedCache(tokens: AuditTokens | null | undefined): boolean {
  return (tokens?.cached_read ?? 0) > 0 || (tokens?.cache_write ?? 0) > 0;
}

/** The tokens of the same call without a cache: every input token plain. */
export function withoutCache(tokens: AuditTokens): AuditTokens {
  const { cached_read: _read, cache_write: _write, cache_write_1h: _write1h, ...rest } = tokens;
  return rest;
}

/**
 * The saving, or undefined when there is nothing to compare (no cache tokens, or either price
 * unknown: an unknown price never becomes a saving of 0).
 */
export function cacheSavings(prices: PriceBook, target: PricedTarget, tokens: AuditTokens, cost: AuditCost): number | undefined {
  if (cost.nano_usd === undefined || !usedCache(tokens)) return undefined;
  const plain = prices.price(target, withoutCache(tokens)).nano_usd;
  return plain === undefined ? undefined : plain - cost.nano_usd;
}

/** A cost with its cache saving noted (the same object when there is none). */
export function withCacheSavings(prices: PriceBook, target: PricedTarget, tokens: AuditTokens, cost: AuditCost): AuditCost {
  const saved = cacheSavings(prices, target, tokens, cost);
  return saved === undefined ? cost : { ...cost, cache_saved_nano_usd: saved };
}
