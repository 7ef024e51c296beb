// Codex hangs up as soon as it reads response.completed, before the provider has
// closed its side. A client that leaves after its stream's final event got
// everything: the audit says 200, not 499 (a real mid-stream disconnect still is 499).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditRecordWhere, startRig, type Rig } from './support.js';

let rig: Rig;
beforeAll(async () => { rig = await startRig({ eventDelayMs: 5 }); }, 60_000);
afterAll(async () => { await rig?.close(); });

async function streamUntil(model: string, marker: string): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(`${rig.gw.url}/v1/chat/completions`, {
    method: 'POST', signal: controller.signal,
    headers: { authorization: `Bearer ${rig.key}`, 'content-type': 'application/json' },
    // include_usage asked by the client itself, so every provider event reaches it and can be counted.
    body: JSON.stringify({ model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hang up after done' }] }),
  });
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes(marker)) break;
  }
  controller.abort();
  return text;
}

it('a client that leaves right after data: [DONE] is recorded as served, while the provider still holds its side open', async () => {
  const whole = await streamUntil('openai/gpt-4o-count-events', 'data: [DONE]');
  const events = whole.split('\n\n').filter((frame) => frame.startsWith('data:')).length;
  // The provider now sends every event, then keeps the connection open instead of ending it.
  rig.openai.setBehaviour({ hangAfterEvents: events }, { times: 1 });
  await streamUntil('openai/gpt-4o-hang-up-after-done', 'data: [DONE]');
  const record = await auditRecordWhere(rig.gw.home, (line) => line.model === 'openai/gpt-4o-hang-up-after-done', 15_000);
  expect(record.status).toBe(200);
  expect(record.outcome).not.toContain('client_disconnected');
});
