// `gw prices set`'s per-unit flags, for media models priced per image, per minute of audio or per
// character rather than per token (README: Spend). Images may cost more by size and quality
// (dall-e-3: 0.04 at 1024x1024, 0.08 at 1024x1792, 0.12 at 1024x1792 hd), so --per-image repeats:
// a bare price for any image, `SIZE=USD`, `QUALITY=USD` or `SIZE/QUALITY=USD` for one variant.
import type { StoredPrice } from '../../state/governance-schema.js';
import { CliExit } from '../cli-context.js';

export interface UnitFlags {
  perImage?: string[];
  perAudioMinute?: string;
  perMillionCharacters?: string;
}

export const UNIT_FLAG_HELP = {
  perImage: 'USD per image; repeat as SIZE=USD, QUALITY=USD or SIZE/QUALITY=USD for one size or quality (e.g. 1024x1792/hd=0.12)',
  perAudioMinute: 'USD per minute of audio transcribed or translated',
  perMillionCharacters: 'USD per million characters of speech (text-to-speech input)',
};

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The unit prices the flags set, as stored; none when no unit flag was given. */
export function readUnitFlags(flags: UnitFlags): Partial<StoredPrice> {
  const prices: Partial<StoredPrice> = {};
  for (const value of flags.perImage ?? []) {
    const equals = value.lastIndexOf('=');
    if (equals < 0) {
      prices.per_image = usd(value, '--per-image');
      continue;
    }
    const variant = value.slice(0, equals);
    if (!/^[\w.-]+(\/[\w.-]+)?$/.test(variant)) throw new CliExit(2, `invalid --per-image "${value}": write USD, SIZE=USD, QUALITY=USD or SIZE/QUALITY=USD`);
    prices.per_image_variants = { ...prices.per_image_variants, [variant]: usd(value.slice(equals + 1), '--per-image') };
  }
  if (flags.perAudioMinute !== undefined) prices.per_audio_minute = usd(flags.perAudioMinute, '--per-audio-minute');
  if (flags.perMillionCharacters !== undefined) prices.per_million_characters = usd(flags.perMillionCharacters, '--per-million-characters');
  return prices;
}

/** `per image 0.04, 1024x1792 0.08, per audio minute 0.006` for `gw prices list`. */
export function describeUnitPrices(entry: StoredPrice): string[] {
  const parts: string[] = [];
  if (entry.per_image !== undefined) parts.push(`per image ${entry.per_image}`);
  for (const [variant, price] of Object.entries(entry.per_image_variants ?? {})) parts.push(`per image ${variant} ${price}`);
  if (entry.per_audio_minute !== undefined) parts.push(`per audio minute ${entry.per_audio_minute}`);
  if (entry.per_million_characters !== undefined) parts.push(`per million characters ${entry.per_million_characters}`);
  return parts;
}

export function usd(value: string, flag: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || value.trim() === '') throw new CliExit(2, `invalid ${flag} "${value}": a number of USD ≥ 0`);
  return number;
}
