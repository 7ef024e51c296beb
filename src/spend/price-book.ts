// The price of one call: a local override (`gw prices set`) first, then the bundled
// @pydantic/genai-prices dataset (never fetched at run time: tests and CI stay offline,
// and an upgrade of the package is an upgrade of the prices). No price is `unknown`,
// never 0. Amounts leave here in nano-USD (integers) for the audit record.
import { calcPrice, type ModelPrice, type Provider, type Usage as PriceUsage } from '@pydantic/genai-prices';
import type { AuditCost, AuditTokens } from '../audit/record.js';
import type { StoredPrice } from '../state/governance-schema.js';
import { flatPrices, priceTextTokens } from './flat-price.js';
import { datasetIdFor, type PricedTarget } from './price-ids.js';

export const NANOS_PER_USD = 1_000_000_000;

/** Per-token rates in USD, for a budget's worst case before the call (tiers: the highest). */
export interface Rates {
  input: number;
  output: number;
}

export interface PriceBook {
  /** The cost of a call's tokens; `price: 'unknown'` when neither an override nor the dataset knows the model. */
  price(target: PricedTarget, tokens: AuditTokens): AuditCost;
  /** The input and output rates, or null when the model has no known price. */
  rates(target: PricedTarget): Rates | null;
}

/** `flat`: the model's prices when plain numbers over text tokens only (the arithmetic below applies); else null. */
type Found = { source: 'override' | 'dataset'; provider: Provider; model: string; flat: ModelPrice | null } | null;

/** `overrides` is read on each call (state.json may change under a running gw). */
export function createPriceBook(overrides: () => readonly StoredPrice[]): PriceBook {
  // The dataset lookup (≈40 µs: every provider's model patterns) is done once per provider and model;
  // later calls price against a one-model provider.
  const found = new Map<string, Found>();
  const lookUp = (target: PricedTarget): Found => {
    const override = overrides().find((entry) => entry.provider === target.provider && entry.model === target.model);
    if (override) {
      const provider = overrideProvider(override);
      return { source: 'override', provider, model: override.model, flat: flatPrices(provider.models[0]?.prices) };
    }
    const cacheKey = `${target.provider}\u0000${target.kind}\u0000${target.preset ?? ''}\u0000${target.model}`;
    if (!found.has(cacheKey)) found.set(cacheKey, lookUpDataset(target));
    return found.get(cacheKey) ?? null;
  };
  return {
    price(target, tokens) {
      const match = lookUp(target);
      if (!match) return { price: 'unknown' };
      const fast = match.flat ? priceTextTokens(match.flat, tokens) : null;
      if (fast !== null) return { nano_usd: Math.round(fast * NANOS_PER_USD), price: match.source, priced_as: match.provider.models[0]!.id };
      try {
        const result = calcPrice(toPriceUsage(tokens), match.model, { provider: match.provider });
        if (!result || !Number.isFinite(result.total_price)) return { price: 'unknown' };
        return { nano_usd: Math.round(result.total_price * NANOS_PER_USD), price: match.source, priced_as: result.model.id };
      } catch {
        // A dataset entry or override the library refuses (a missing ancestor price): unknown, not 0.
        return { price: 'unknown' };
      }
    },
    rates(target) {
      const match = lookUp(target);
      const prices = match ? pricesOf(match.provider.models[0]?.prices) : [];
      const input = highest(prices.map((price) => price.input_mtok));
      const output = highest(prices.map((price) => price.output_mtok));
      return input === null || output === null ? null : { input: input / 1e6, output: output / 1e6 };
    },
  };
}

function lookUpDataset(target: PricedTarget): Found {
  const id = datasetIdFor(target);
  if (!id) return null;
  const probe = calcPrice({ input_tokens: 0, output_tokens: 0 }, id.model, id.providerId ? { providerId: id.providerId } : {});
  if (!probe) return null;
  const provider: Provider = { ...probe.provider, models: [{ ...probe.model, match: { equals: id.model } }] };
  return { source: 'dataset', provider, model: id.model, flat: flatPrices(probe.model.prices) };
}

function overrideProvider(entry: StoredPrice): Provider {
  const { provider: _provider, model, ...prices } = entry;
  return { id: `gw-override-${entry.provider}`, name: entry.provider, api_pattern: '.*', models: [{ id: model, match: { equals: model }, prices }] };
}

/** The library's usage keys: input_tokens is the whole input, the cache and audio keys parts of it. */
function toPriceUsage(tokens: AuditTokens): PriceUsage {
  return {
    input_tokens: tokens.input, output_tokens: tokens.output, cache_read_tokens: tokens.cached_read,
    cache_write_tokens: tokens.cache_write, cache_write_1h_tokens: tokens.cache_write_1h,
    input_audio_tokens: tokens.audio_input, output_audio_tokens: tokens.audio_output,
  };
}

/** Every price a model may be charged at: conditional ones (by date, time of day) all count for a worst case. */
function pricesOf(prices: ModelPrice | Array<{ prices: ModelPrice }> | undefined): ModelPrice[] {
  if (Array.isArray(prices)) return prices.map((entry) => entry.prices);
  return prices ? [prices] : [];
}

/** The highest of flat and tiered prices (tiers by prompt size), or null when none is known. */
function highest(prices: Array<ModelPrice[string]>): number | null {
  const values = prices.flatMap((price) => typeof price === 'number' ? [price] : price ? [price.base, ...price.tiers.map((tier) => tier.price)] : []);
  return values.length > 0 ? Math.max(...values) : null;
}
