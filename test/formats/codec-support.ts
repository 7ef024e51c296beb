// Test helpers shared by the SSE dialects' codec tests (OpenAI Chat, Anthropic Messages): fixtures, golden files, SSE parsing and a local server for the SDKs.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { CodecContext, StreamDecoder, StreamEncoder, WireEvent } from '../../src/canonical/codec.js';
import type { StreamPart } from '../../src/canonical/response.js';
import { SseDecoder } from '../../src/streaming/sse-decoder.js';

export function fixtures(dialect: string): { dir: string; text: (name: string) => string; json: (name: string) => unknown } {
  const dir = join(import.meta.dirname, '../fixtures/formats', dialect);
  const text = (name: string): string => readFileSync(join(dir, name), 'utf8');
  return { dir, text, json: (name) => JSON.parse(text(name)) as unknown };
}

/** Compares with a golden JSON file; GW_UPDATE_GOLDEN=1 rewrites it (review the diff before keeping it). */
export function expectGolden(dir: string, name: string, actual: unknown): void {
  const path = join(dir, name);
  const normalised: unknown = JSON.parse(JSON.stringify(actual));
  if (process.env.GW_UPDATE_GOLDEN === '1' || !existsSync(path)) writeFileSync(path, `${JSON.stringify(normalised, null, 2)}\n`);
  expect(normalised).toEqual(JSON.parse(readFileSync(path, 'utf8')));
}

export function parseSse(text: string): WireEvent[] {
  const decoder = new SseDecoder();
  return [...decoder.push(new TextEncoder().encode(text)), ...decoder.end()].map((event) => ({
    ...(event.event === undefined ? {} : { event: event.event }),
    data: event.data,
  }));
}

export function decodeStream(decoder: StreamDecoder, text: string): StreamPart[] {
  const parts: StreamPart[] = [];
  for (const event of parseSse(text)) parts.push(...decoder.push(event));
  return [...parts, ...decoder.end()];
}

export function encodeStream(encoder: StreamEncoder, parts: StreamPart[]): string {
  return parts.map((part) => encoder.push(part)).join('') + encoder.end();
}

export function fixedContext(): CodecContext {
  let next = 0;
  return { ids: () => `id${++next}`, now: () => 1_700_000_000 };
}

/** A local server answering every request with the given SSE text, for the official SDKs' own parsers. */
export async function withSseServer<T>(sse: string, run: (baseUrl: string) => Promise<T>): Promise<T> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(sse);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
