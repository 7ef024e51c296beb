// Deterministic embeddings: the same text always gives the same unit vector,
// and different texts give different ones, so tests can compare them.

export const DEFAULT_MOCK_DIMENSIONS = 16;

function hashText(text: string): number {
  // FNV-1a, 32 bit: cheap and stable across runs.
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function createGenerator(seed: number): () => number {
  // mulberry32: a tiny seeded generator with values in [0, 1).
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** A unit-length vector whose components are exact float32 values, so base64 round-trips. */
export function createMockEmbedding(text: string, dimensions = DEFAULT_MOCK_DIMENSIONS): number[] {
  const size = Math.max(1, Math.min(4096, Math.floor(dimensions)));
  const next = createGenerator(hashText(text));
  const raw = Array.from({ length: size }, () => next() * 2 - 1);
  const length = Math.sqrt(raw.reduce((sum, value) => sum + value * value, 0)) || 1;
  return raw.map((value) => Math.fround(value / length));
}

/** Little-endian float32 bytes in base64, as OpenAI returns for `encoding_format: "base64"`
 * (https://platform.openai.com/docs/api-reference/embeddings/create#embeddings-create-encoding_format). */
export function encodeFloat32Base64(values: number[]): string {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((value, index) => view.setFloat32(index * 4, value, true));
  return Buffer.from(view.buffer).toString('base64');
}
