import { describe, expect, it } from 'vitest';
import { respondAsMock } from '../../../src/providers/mock/respond-as-mock.js';
import { readChunks } from './read-mock-response.js';

const body = { messages: [{ role: 'user', content: 'one two three' }] };

describe('respondAsMock timing', () => {
  it('mock/slow waits 200 ms between stream events', async () => {
    const sleeps: number[] = [];
    const response = respondAsMock({ operation: 'chat', model: 'mock/slow', body, stream: true }, { sleep: async (ms) => { sleeps.push(ms); } });
    const chunks = await readChunks(response);
    expect(sleeps).toHaveLength(chunks.length - 1);
    expect(sleeps.every((ms) => ms === 200)).toBe(true);
  });

  it('mock/slow really spreads events over time with the default sleep', async () => {
    const response = respondAsMock({ operation: 'messages', model: 'mock/slow', body: { messages: [{ role: 'user', content: 'x' }] }, stream: true });
    const arrivals: number[] = [];
    for await (const _chunk of response.body) arrivals.push(Date.now());
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(200 * (arrivals.length - 1) - 20);
  }, 10_000);

  it('other models do not sleep while streaming', async () => {
    const sleeps: number[] = [];
    await readChunks(respondAsMock({ operation: 'chat', model: 'mock/echo', body, stream: true }, { sleep: async (ms) => { sleeps.push(ms); } }));
    expect(sleeps).toEqual([]);
  });

  it('a slow JSON answer waits once', async () => {
    const sleeps: number[] = [];
    await readChunks(respondAsMock({ operation: 'chat', model: 'mock/slow', body, stream: false }, { sleep: async (ms) => { sleeps.push(ms); } }));
    expect(sleeps).toEqual([200]);
  });

  it('uses unique ids by default', async () => {
    const first = respondAsMock({ operation: 'chat', model: 'mock/echo', body, stream: false });
    const second = respondAsMock({ operation: 'chat', model: 'mock/echo', body, stream: false });
    const read = async (response: typeof first): Promise<string> => (JSON.parse(Buffer.concat(await readChunks(response)).toString()) as { id: string }).id;
    expect(await read(first)).not.toBe(await read(second));
  });

  it('ignores error-<status> outside 400..599', () => {
    expect(respondAsMock({ operation: 'chat', model: 'mock/error-200', body, stream: false }).status).toBe(200);
  });
});
