// Base62 (0-9A-Za-z): survives double-click selection, URLs and shell quoting.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Big-endian bytes as a fixed-width base62 number, left-padded with `0`. */
export function encodeBase62(bytes: Uint8Array, width: number): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = ALPHABET[Number(value % 62n)] + text;
    value /= 62n;
  }
  if (text.length > width) throw new RangeError(`${bytes.length} bytes do not fit in ${width} base62 characters`);
  return text.padStart(width, '0');
}

/** `length` uniformly random base62 characters (rejection sampling, so no modulo bias). */
export function randomBase62(length: number, random: (size: number) => Uint8Array = randomBytes): string {
  let text = '';
  while (text.length < length) {
    for (const byte of random(length * 2)) {
      // 248 = 4 × 62: bytes above it would favour the first characters.
      if (byte < 248 && text.length < length) text += ALPHABET[byte % 62];
    }
  }
  return text;
}
