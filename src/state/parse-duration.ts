// Key lifetimes as people type them: 45s, 90m, 12h, 30d, 2w.
import { StateInputError } from './state-errors.js';

// Beyond a century an "expiry" is a typo, and far dates overflow Date.
const MAX_MS = 100 * 365 * 86_400_000;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Milliseconds for `<whole number><s|m|h|d|w>`; throws StateInputError otherwise. */
export function parseDuration(text: string): number {
  const match = /^(\d{1,9})([smhdw])$/.exec(text.trim());
  const milliseconds = match ? Number(match[1]) * (UNIT_MS[match[2] ?? ''] ?? Number.NaN) : Number.NaN;
  if (Number.isSafeInteger(milliseconds) && milliseconds > 0 && milliseconds <= MAX_MS) return milliseconds;
  throw new StateInputError(`invalid duration "${text}": use a whole number and a unit s, m, h, d or w (for example 30d), at most 100 years`);
}
