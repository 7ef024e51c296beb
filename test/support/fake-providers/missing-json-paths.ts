// Compares a JSON answer with a documented one by key paths, so tests check
// shape (which fields exist) without caring about values.
import { readFileSync } from 'node:fs';
import { SseDecoder } from '../../../src/streaming/sse-decoder.js';

/** Every key path in a JSON value; array items are merged under "[]". */
export function collectJsonPaths(value: unknown, prefix = '', into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => collectJsonPaths(item, `${prefix}[]`, into));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      into.add(`${prefix}.${key}`);
      collectJsonPaths(child, `${prefix}.${key}`, into);
    }
  }
  return into;
}

/** Paths in `documented` that `actual` lacks, except those starting with an `optional` prefix. */
export function findMissingJsonPaths(documented: unknown, actual: unknown, optional: string[] = []): string[] {
  const have = collectJsonPaths(actual);
  return [...collectJsonPaths(documented)].filter((path) => !have.has(path) && !optional.some((skip) => path.startsWith(skip)));
}

/** The JSON payloads of an SSE body, without OpenAI's [DONE]. */
export function readSseJson(text: string): unknown[] {
  const decoder = new SseDecoder();
  return [...decoder.push(new TextEncoder().encode(text)), ...decoder.end()]
    .filter((event) => event.data !== '[DONE]')
    .map((event) => JSON.parse(event.data) as unknown);
}

/** A file under test/fixtures/. */
export function readFixture(path: string): string {
  return readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8');
}
