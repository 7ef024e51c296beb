// The price of one call: a local override (`gw prices set`) first, then the bundled
// @pydantic/genai-prices dataset (never fetched at run time: tests and CI stay offline,
// and an upgrade of the package is an upgrade of the prices). No price is `unknown`,
// never 0. Amounts leave here in nano-USD (integers) for the audit record.
import { calcPrice, type ModelPrice, type Provider, type Usage as PriceUsage } from '@pydantic/genai-prices';
import type { AuditCost, AuditTokens } from '../audit/record.js';
import type { StoredPrice } from '../state/governance-schema.js';
import { flatPrices, priceTextTokens } from './flat-price.js';
import { cacheSavingAt, usedCache } from './cache-savings.js';
import { datasetIdFor, type PricedTarget } from './price-ids.js';
import { dearestImagePrice, hasUnits, imagePricesOf, libraryUnitPrices, totalWithUnits, UNIT_PRICE_FIELDS, type ImagePrices, type ImageVariant } from './unit-prices.js';

export const NANOS_PER_USD = 1_000_000_000;

/**
 * Rates in USD, for a budget's worst case before the call (tiers: the highest): per token, and
 * per unit for media models (a model priced only per unit has token rates of 0).
 */
export interface Rates {
  input: number;
  output: number;
  perImage?: number;
  perAudioSecond?: number;
  perCharacter?: number;
  /** The most output the model can write in one call (its context window, from the dataset), for a request that sets no cap. */
  outputCeiling?: number;
}

export interface PriceBook {
  /**
   * The cost of a call's tokens and units (images at `image`'s size and quality); `price: 'unknown'`
   * when neither an override nor the dataset knows the model, or a unit it used has no price.
   * A text call that read or wrote the prompt cache also says what that saved (cache_saved_nano_usd).
   */
  price(target: PricedTarget, tokens: AuditTokens, image?: ImageVariant): AuditCost;
  /** The input and output rates, or null when the model has no known price. */
  rates(target: PricedTarget): Rates | null;
}

/**
 * `flat`: the model's prices when plain numbers over text tokens only (the arithmetic below applies); else null.
 * `images`: an override's image prices (the dataset has none).
 */
type Found = { source: 'override' | 'dataset'; provider: Provider; model: string; flat: ModelPrice | null; images?: ImagePrices; contextWindow?: number } | null;

/** `overrides` is read on each call (state.json may change under a running gw). */
export function createPriceBook(overrides: () => readonly StoredPrice[]): PriceBook {
  // The dataset lookup (≈40 µs: every provider's model patterns) is done once per provider and model;
  // later calls price against a one-model provider.
  const found = new Map<string, Found>();
  const lookUp = (target: PricedTarget): Found => {
    const override = overrides().find((entry) => entry.provider === target.provider && entry.model === target.model);
    if (override) {
      const provider = overrideProvider(override);
      return { source: 'override', provider, model: override.model, flat: flatPrices(provider.models[0]?.prices), images: imagePricesOf(override) };
    }
    const cacheKey = `${target.provider}\u0000${target.kind}\u0000${target.preset ?? ''}\u0000${target.model}`;
    if (!found.has(cacheKey)) found.set(cacheKey, lookUpDataset(target));
    return found.get(cacheKey) ?? null;
  };
  return {
    price(target, tokens, image = {}) {
      const match = lookUp(target);
      if (!match) return { price: 'unknown' };
      if (hasUnits(tokens)) return priceWithUnits(match, tokens, image);
      const fast = match.flat ? priceTextTokens(match.flat, tokens) : null;
      if (fast !== null) return withSaving({ nano_usd: Math.round(fast * NANOS_PER_USD), price: match.source, priced_as: match.provider.models[0]!.id }, match.flat!, tokens);
      try {
        const result = calcPrice(toPriceUsage(tokens), match.model, { provider: match.provider });
        if (!result || !Number.isFinite(result.total_price)) return { price: 'unknown' };
        // A model priced only per unit (whisper-1, an override with --per-image) prices tokens at nothing: unknown, not 0.
        if (result.model_price.input_mtok === undefined && result.model_price.output_mtok === undefined) return { price: 'unknown' };
        return withSaving({ nano_usd: Math.round(result.total_price * NANOS_PER_USD), price: match.source, priced_as: result.model.id }, result.model_price, tokens);
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
      const units = unitRates(prices, match?.images);
      if (input === null || output === null) return Object.keys(units).length > 0 ? { input: 0, output: 0, ...units } : null;
      const ceiling = match?.contextWindow;
      return { input: input / 1e6, output: output / 1e6, ...units, ...(ceiling ? { outputCeiling: ceiling } : {}) };
    },
  };
}

/** A call that read or wrote the prompt cache: what that saved, at the prices it was charged (cache-savings.ts). */
function withSaving(cost: AuditCost, prices: ModelPrice, tokens: AuditTokens): AuditCost {
  if (!usedCache(tokens)) return cost;
  const saved = cacheSavingAt(prices, tokens);
  return saved === undefined ? cost : { ...cost, cache_saved_nano_usd: saved };
}

function lookUpDataset(target: PricedTarget): Found {
  const id = datasetIdFor(target);
  if (!id) return null;
  const probe = calcPrice({ input_tokens: 0, output_tokens: 0 }, id.model, id.providerId ? { providerId: id.providerId } : {});
  if (!probe) return null;
  const provider: Provider = { ...probe.provider, models: [{ ...probe.model, match: { equals: id.model } }] };
  const contextWindow = probe.model.context_window;
  return { source: 'dataset', provider, model: id.model, flat: flatPrices(probe.model.prices), ...(contextWindow ? { contextWindow } : {}) };
}

function overrideProvider(entry: StoredPrice): Provider {
  const { provider: _provider, model, ...fields } = entry;
  const prices: ModelPrice = { ...libraryUnitPrices(entry) };
  for (const [key, value] of Object.entries(fields)) if (!(UNIT_PRICE_FIELDS as readonly string[]).includes(key) && typeof value === 'number') prices[key] = value;
  return { id: `gw-override-${entry.provider}`, name: entry.provider, api_pattern: '.*', models: [{ id: model, match: { equals: model }, prices }] };
}

/** A media call: calcPrice prices its tokens, audio seconds and characters; images and the unknowns are unit-prices.ts's. */
function priceWithUnits(match: NonNullable<Found>, tokens: AuditTokens, image: ImageVariant): AuditCost {
  try {
    const result = calcPrice(toPriceUsage(tokens), match.model, { provider: match.provider });
    const total = result ? totalWithUnits(result.model_price, match.images, tokens, image, result.total_price) : null;
    if (!result || total === null || !Number.isFinite(total)) return { price: 'unknown' };
    return { nano_usd: Math.round(total * NANOS_PER_USD), price: match.source, priced_as: result.model.id };
  } catch {
    return { price: 'unknown' };
  }
}

/** Per-unit rates in USD: the dataset's per hour and per million characters brought to a second and a character. */
function unitRates(prices: ModelPrice[], images: ImagePrices | undefined): Omit<Rates, 'input' | 'output'> {
  const hour = highest(prices.map((price) => price.audio_hours));
  const million = highest(prices.map((price) => price.input_mchars));
  const image = dearestImagePrice(images);
  return {
    ...(image !== undefined ? { perImage: image } : {}),
    ...(hour !== null ? { perAudioSecond: hour / 3600 } : {}),
    ...(million !== null ? { perCharacter: million / 1e6 } : {}),
  };
}

/** The library's usage keys: input_tokens is the whole input, the cache and audio keys parts of it. */
function toPriceUsage(tokens: AuditTokens): PriceUsage {
  return {
    input_tokens: tokens.input, output_tokens: tokens.output, cache_read_tokens: tokens.cached_read,
    cache_write_tokens: tokens.cache_write, cache_write_1h_tokens: tokens.cache_write_1h,
    input_audio_tokens: tokens.audio_input, output_audio_tokens: tokens.audio_output, input_image_tokens: tokens.image_input,
    // Units the library prices per hour and per million (the keys of its unit table).
    audio_seconds: tokens.audio_seconds, input_characters: tokens.characters,
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
