// A same-format /v1/responses stream whose provider dies mid-way, through a real `gw serve`:
// it ends with the Responses dialect's own failure events (error, then response.failed with
// status "failed"), numbered after the provider's events, never Chat's `data: {"error":…}` line.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecord, post, readTimed, startRig, type Rig } from './support.js';
import { SseDecoder } from '../../../src/streaming/sse-decoder.js';

let rig: Rig;

beforeAll(async () => { rig = await startRig({ eventDelayMs: 20 }); }, 30_000);
afterAll(async () => { await rig?.close(); });

/** Reads a stream to its end and returns what it threw, or undefined when it ended cleanly. */
async function readUntilThrown<T>(stream: AsyncIterable<T>, onEvent: (event: T) => void): Promise<unknown> {
  try {
    for await (const event of stream) onEvent(event);
  } catch (error) {
    return error;
  }
  return undefined;
}

function events(text: string): Array<{ event?: string; data: Record<string, unknown> }> {
  const decoder = new SseDecoder();
  return [...decoder.push(Buffer.from(text)), ...decoder.end()].map((event) => ({ event: event.event, data: JSON.parse(event.data) as Record<string, unknown> }));
}

describe('same-format Responses stream, provider reset after the first byte', () => {
  it('ends with error then response.failed (status failed, error code and message), continuing sequence_number', async () => {
    rig.openai.setBehaviour({ resetAfterEvents: 3 }, { times: 1 });
    const response = await post(rig, '/v1/responses', { model: 'openai/gpt-4o', stream: true, input: 'one two three four' });
    expect(response.status).toBe(200);
    const { text } = await readTimed(response);
    const seen = events(text);
    expect(seen.slice(0, 3).map((event) => event.event)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added']);
    expect(seen.slice(3).map((event) => event.event)).toEqual(['error', 'response.failed']);
    const failed = seen.at(-1)!.data;
    expect(failed).toMatchObject({ type: 'response.failed', sequence_number: 4, response: { object: 'response', status: 'failed', error: { code: 'upstream_unreachable' } } });
    expect(typeof (failed.response as { error: { message: unknown } }).error.message).toBe('string');
    expect(seen.at(-2)!.data).toMatchObject({ type: 'error', code: 'upstream_unreachable', sequence_number: 3 });
    expect(text).not.toMatch(/^data: \{"error"/m);
    const audit = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
    expect(audit).toMatchObject({ status: 200, outcome: expect.arrayContaining(['GW_ERR_UPSTREAM_UNREACHABLE']) });
  });

  // openai 7.x raises a Responses `error` event as an APIError (6.x yielded it, then
  // response.failed): a 7.x user sees the events before the failure, then gw's code and message.
  it('the openai SDK yields the events before the failure, then throws an APIError with the error event\'s code', async () => {
    rig.openai.setBehaviour({ resetAfterEvents: 2 }, { times: 1 });
    const client = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0 });
    const types: string[] = [];
    const stream = await client.responses.create({ model: 'openai/gpt-4o', stream: true, input: 'one two three four' });
    const failure = await readUntilThrown(stream, (event) => { types.push(event.type); });
    expect(types).toEqual(['response.created', 'response.in_progress']);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure).toMatchObject({ code: 'upstream_unreachable', message: expect.stringMatching(/\S/) });
  });
});
