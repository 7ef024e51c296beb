// Test helpers: read a MockResponse body back as JSON or as SSE events.
import { SseDecoder, type SseEvent } from '../../../src/streaming/sse-decoder.js';
import { respondAsMock, type MockOptions, type MockRequest, type MockResponse } from '../../../src/providers/mock/respond-as-mock.js';

const fixedOptions: MockOptions = {
  now: () => 1_700_000_000_000,
  idFactory: () => 'fixed',
  sleep: async () => {},
};

export async function readChunks(response: MockResponse): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body) chunks.push(chunk);
  return chunks;
}

export async function readJson(response: MockResponse): Promise<Record<string, unknown>> {
  const chunks = await readChunks(response);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

/** Decodes each chunk on its own and checks it holds exactly one event. */
export async function readEvents(response: MockResponse): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for (const chunk of await readChunks(response)) {
    const decoder = new SseDecoder();
    const fromChunk = [...decoder.push(chunk), ...decoder.end()];
    if (fromChunk.length !== 1) throw new Error(`expected one SSE event per chunk, got ${fromChunk.length}`);
    events.push(...fromChunk);
  }
  return events;
}

export function dataOf(events: SseEvent[]): Array<Record<string, unknown>> {
  return events.filter((event) => event.data !== '[DONE]').map((event) => JSON.parse(event.data) as Record<string, unknown>);
}

export function mock(request: MockRequest, options: MockOptions = fixedOptions): MockResponse {
  return respondAsMock(request, options);
}
