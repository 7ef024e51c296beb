// Media calls priced per unit rather than per token: images made, seconds of audio heard,
// characters spoken. The dataset prices audio by the hour (`audio_hours`: whisper-1 and its
// peers) and characters by the million (`input_mchars`), and calcPrice applies those with the
// providers' quirks (Groq's 10-second minimum); it has no price per image, so images are priced
// here, from a local override. A unit with no price is never 0: the call's price is unknown,
// unless the provider also reported tokens the model is priced by (gpt-image-1 bills tokens).
import type { ModelPrice } from '@pydantic/genai-prices';
import type { AuditTokens } from '../audit/record.js';
import type { StoredPrice } from '../state/governance-schema.js';

/** The size and quality an image was made at (OpenAI's `size` and `quality`), when known. */
export interface ImageVariant {
  size?: string;
  quality?: string;
}

/** An override's image prices (the dataset has none). */
export interface ImagePrices {
  perImage?: number;
  /** Keyed `1024x1792`, `hd` or `1024x1792/hd`. */
  variants?: Readonly<Record<string, number>>;
}

/** The override fields that are gw's own, not the dataset's price keys. */
export const UNIT_PRICE_FIELDS = ['per_image', 'per_image_variants', 'per_audio_minute', 'per_million_characters'] as const;

export function hasUnits(tokens: AuditTokens): boolean {
  return tokens.images !== undefined || tokens.audio_seconds !== undefined || tokens.characters !== undefined;
}

/** An override's audio and character prices under the dataset's keys, so calcPrice applies them as it does the dataset's. */
export function libraryUnitPrices(entry: StoredPrice): ModelPrice {
  return {
    ...(entry.per_audio_minute !== undefined ? { audio_hours: entry.per_audio_minute * 60 } : {}),
    ...(entry.per_million_characters !== undefined ? { input_mchars: entry.per_million_characters } : {}),
  };
}

export function imagePricesOf(entry: StoredPrice): ImagePrices | undefined {
  if (entry.per_image === undefined && entry.per_image_variants === undefined) return undefined;
  return { perImage: entry.per_image, variants: entry.per_image_variants };
}

/** The most specific price first: size and quality, the size, the quality, then any image. */
function imagePrice(prices: ImagePrices | undefined, variant: ImageVariant): number | undefined {
  const variants = prices?.variants ?? {};
  const keys = [variant.size && variant.quality ? `${variant.size}/${variant.quality}` : undefined, variant.size, variant.quality];
  for (const key of keys) if (key !== undefined && Object.hasOwn(variants, key)) return variants[key];
  return prices?.perImage;
}

/** The dearest image price, for a budget's worst case before the size is known to have been honoured. */
export function dearestImagePrice(prices: ImagePrices | undefined): number | undefined {
  const all = [prices?.perImage, ...Object.values(prices?.variants ?? {})].filter((price): price is number => price !== undefined);
  return all.length > 0 ? Math.max(...all) : undefined;
}

/**
 * The call's USD: calcPrice's total (tokens, audio seconds, characters) plus its images; null
 * when a unit it used has no price and no token price covers the call, or nothing priced it.
 */
export function totalWithUnits(modelPrice: ModelPrice, images: ImagePrices | undefined, tokens: AuditTokens, variant: ImageVariant, libraryTotal: number): number | null {
  const tokensPriced = (tokens.input !== undefined || tokens.output !== undefined) && (modelPrice.input_mtok !== undefined || modelPrice.output_mtok !== undefined);
  let charged = tokensPriced;
  let total = libraryTotal;
  for (const [count, key] of [[tokens.audio_seconds, 'audio_hours'], [tokens.characters, 'input_mchars']] as const) {
    if (count === undefined) continue;
    if (modelPrice[key] !== undefined) charged = true;
    else if (!tokensPriced) return null;
  }
  if (tokens.images !== undefined) {
    const price = imagePrice(images, variant);
    if (price !== undefined) {
      total += tokens.images * price;
      charged = true;
    } else if (!tokensPriced) return null;
  }
  return charged ? total : null;
}
