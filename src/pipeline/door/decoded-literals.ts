// Coding agents resend the whole conversation every turn, so most long string values in a
// request are byte for byte ones gw decoded a moment ago. Decoding and unescaping them again
// costs time and, worse, allocates a fresh copy of every one (garbage for the collector, and a
// new string DLP's clean-text cache must compare character by character). Recent long literals
// are remembered with their bytes: a literal whose bytes are equal (compared whole, at memory
// speed) gets the very string decoded before, which is exactly what JSON.parse would return.
// Bounded by total bytes, oldest out first; one memo per process, since the answer for the
// same bytes never changes (and a hit tells a caller only that these exact bytes, which it must
// already hold, were sent before: the timing of a 512-byte-or-longer exact match).

interface Literal {
  bytes: Buffer;
  value: string;
}

/** Total bytes of remembered literals (each also holds its decoded string, about as large again or twice). */
const MAX_BYTES = 8 * 1024 * 1024;
const SAMPLE = 16;

const byPrint = new Map<string, Literal>();
/** Fingerprints in the order they were remembered; `oldest` is the next to evict. */
const order: string[] = [];
let oldest = 0;
let total = 0;

/** Length and three short samples: cheap, and a collision only costs a comparison that fails. */
function fingerprint(bytes: Buffer, start: number, end: number): string {
  const middle = (start + end) >> 1;
  return `${end - start}:${bytes.toString('latin1', start, start + SAMPLE)}${bytes.toString('latin1', middle, middle + SAMPLE)}${bytes.toString('latin1', end - SAMPLE, end)}`;
}

/** What the memo holds now (for its bound's test and for anyone measuring memory). */
export function rememberedLiterals(): { bytes: number; literals: number } {
  return { bytes: total, literals: byPrint.size };
}

/** JSON.parse of the string literal at bytes[start, end) (quotes included). */
export function decodeLiteral(bytes: Buffer, start: number, end: number): string {
  const print = fingerprint(bytes, start, end);
  const known = byPrint.get(print);
  if (known !== undefined && bytes.compare(known.bytes, 0, known.bytes.length, start, end) === 0) return known.value;
  const value = JSON.parse(bytes.toString('utf8', start, end)) as string;
  remember(print, ownCopy(bytes, start, end), value);
  return value;
}

/**
 * A copy with its own memory: Buffer.from would put a short one in Node's shared 8 KB pool,
 * where a remembered 600 bytes would keep the whole slab alive, past what the bound counts.
 */
function ownCopy(bytes: Buffer, start: number, end: number): Buffer {
  const copy = Buffer.allocUnsafeSlow(end - start);
  bytes.copy(copy, 0, start, end);
  return copy;
}

function remember(print: string, bytes: Buffer, value: string): void {
  if (bytes.length > MAX_BYTES) return;
  const replaced = byPrint.get(print);
  if (replaced !== undefined) total -= replaced.bytes.length;
  else order.push(print);
  byPrint.set(print, { bytes, value });
  total += bytes.length;
  while (total > MAX_BYTES && oldest < order.length) {
    const print = order[oldest++]!;
    const evicted = byPrint.get(print);
    if (evicted === undefined) continue;
    byPrint.delete(print);
    total -= evicted.bytes.length;
  }
  // Drop the evicted head now and then (shifting one at a time would copy the queue each time).
  if (oldest > 1024 && oldest * 2 > order.length) {
    order.splice(0, oldest);
    oldest = 0;
  }
}
