// Helpers the fake dialects share for reading untrusted JSON request bodies.

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function field(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

export function list(value: unknown, key: string): unknown[] {
  const found = field(value, key);
  return Array.isArray(found) ? found : [];
}

export function text(value: unknown, key: string): string | undefined {
  const found = field(value, key);
  return typeof found === 'string' ? found : undefined;
}

/** A string content or the text parts of an array content (OpenAI and Anthropic). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part) => (text(part, 'type') === 'text' ? (text(part, 'text') ?? '') : '')).join('') : '';
}

/** The fakes answer `echo: <last user text>` so tests can tell requests apart. */
export function createEchoText(lastUserText: string): string {
  return `echo: ${lastUserText}`;
}

export function countTokens(value: string): number {
  return Math.ceil(value.length / 4);
}

/** Word-sized pieces, at least three when the text allows, so streams have several events. */
export function splitWords(value: string): string[] {
  return value.match(/\s*\S+\s*/g) ?? [value];
}

/** A stable pseudo-embedding so tests can compare vectors. */
export function embedText(value: string, dimensions = 8): number[] {
  let seed = 7;
  for (const character of value) seed = (seed * 31 + (character.codePointAt(0) ?? 0)) % 1_000_003;
  return Array.from({ length: dimensions }, (_, index) => Math.fround(((seed * (index + 1)) % 2000) / 1000 - 1));
}
