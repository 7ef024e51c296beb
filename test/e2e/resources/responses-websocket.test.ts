// The Responses API over WebSocket (Codex's first choice), served through the same
// corridor as POST /v1/responses: each response.create is one governed, routed,
// translated and audited call; events come back one message each. A turn continued
// with previous_response_id and only the new input reaches a provider of another
// dialect as the whole conversation. A refusal is an error event, never a closed socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SAMPLES } from '../../dlp/samples.js';
import { startRig, stopAndVerify, type Rig } from '../forwarding/support.js';
import { readAudit, sleep } from '../helpers.js';
import type { WireJson } from '../../support/wire-json.js';

type Json = WireJson;

let rig: Rig;
beforeAll(async () => { rig = await startRig({ eventDelayMs: 2 }); }, 60_000);
afterAll(async () => { if (rig) await stopAndVerify(rig); await rig?.close(); });

/** A connected client that collects events and resolves each turn at its terminal event. */
async function connect(headers: Record<string, string> = { authorization: `Bearer ${rig.key}` }): Promise<{ turn(event: Json): Promise<Json[]>; close(): void }> {
  const socket = new WebSocket(`${rig.gw.url.replace('http', 'ws')}/v1/responses`, { headers: { 'openai-beta': 'responses_websockets=2026-02-06', ...headers } });
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); socket.once('unexpected-response', (_request, response) => reject(new Error(`handshake ${response.statusCode}`))); });
  let events: Json[] = [];
  let done: ((events: Json[]) => void) | null = null;
  socket.on('message', (data) => {
    const event = JSON.parse(String(data)) as Json;
    events.push(event);
    if (['response.completed', 'response.failed', 'response.incomplete', 'error'].includes(event.type)) {
      const finished = events;
      events = [];
      done?.(finished);
    }
  });
  return {
    turn(event) {
      return new Promise((resolve) => { done = resolve; socket.send(JSON.stringify(event)); });
    },
    close: () => socket.close(),
  };
}

describe('Responses over WebSocket', () => {
  it('serves a turn to a provider of another dialect, translated, and audits it as a websocket turn', async () => {
    const client = await connect();
    const before = rig.anthropic.requests.length;
    const events = await client.turn({ type: 'response.create', model: 'anthropic/claude-sonnet-4-5', input: 'hello over a socket', store: false });
    client.close();
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.output_text.delta');
    expect(types.at(-1)).toBe('response.completed');
    expect(events.at(-1)!.response.output[0].content[0].text).toBe('echo: hello over a socket');
    expect(rig.anthropic.requests.length).toBe(before + 1);
    expect(rig.anthropic.requests.at(-1)!.path).toBe('/v1/messages');
    await sleep(300);
    const record = (await readAudit(rig.gw.home)).filter((line) => line.kind === 'request').at(-1)!;
    expect(record).toMatchObject({ operation: 'responses.create', provider: 'anthropic', status: 200, data: { transport: 'websocket' } });
    expect(record.key_id).toBeTruthy();
  });

  it('a custom tool call comes back as custom_tool_call, and the next turn with previous_response_id carries the whole conversation', async () => {
    const client = await connect();
    const first = await client.turn({
      type: 'response.create', model: 'anthropic/claude-sonnet-4-5', store: false,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'patch the readme' }] }],
      tools: [{ type: 'custom', name: 'apply_patch', description: 'Edit files', format: { type: 'grammar', syntax: 'lark', definition: 'start: "*** Begin Patch"' } }],
    });
    const completed = first.at(-1)!;
    expect(completed.type).toBe('response.completed');
    const call = completed.response.output.find((item: Json) => item.type === 'custom_tool_call');
    expect(call, JSON.stringify(completed.response.output)).toMatchObject({ name: 'apply_patch' });
    expect(typeof call.input).toBe('string');
    expect(first.map((event) => event.type)).toContain('response.custom_tool_call_input.done');

    const second = await client.turn({
      type: 'response.create', model: 'anthropic/claude-sonnet-4-5', store: false, previous_response_id: completed.response.id,
      input: [{ type: 'custom_tool_call_output', call_id: call.call_id, output: 'Done!' }],
      tools: [{ type: 'custom', name: 'apply_patch', description: 'Edit files' }],
    });
    client.close();
    expect(second.at(-1)!.type).toBe('response.completed');
    const sent = rig.anthropic.requests.at(-1)!.json as Json;
    expect(sent.messages.map((message: Json) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(sent.messages[0])).toContain('patch the readme');
    expect(sent.messages[1].content.find((part: Json) => part.type === 'tool_use')).toMatchObject({ id: call.call_id, name: 'apply_patch' });
    expect(sent.messages[2].content.find((part: Json) => part.type === 'tool_result')).toMatchObject({ tool_use_id: call.call_id });
  });

  it('a secret in a turn is refused with an error event, nothing reaches a provider, and the next turn is served', async () => {
    const client = await connect();
    const seen = rig.fakes().reduce((sum, fake) => sum + fake.requests.length, 0);
    const refused = await client.turn({ type: 'response.create', model: 'openai/gpt-4o', input: `my token ${SAMPLES.githubPat}` });
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ type: 'error', status: 403 });
    expect(JSON.stringify(refused[0])).toContain('github_token');
    expect(JSON.stringify(refused[0])).not.toContain(SAMPLES.githubPat);
    expect(rig.fakes().reduce((sum, fake) => sum + fake.requests.length, 0)).toBe(seen);
    const next = await client.turn({ type: 'response.create', model: 'openai/gpt-4o', input: 'and now a clean one' });
    client.close();
    expect(next.at(-1)!.type).toBe('response.completed');
    expect(rig.openai.requests.at(-1)!.path).toBe('/v1/responses');
  });

  it('an event that is not response.create, malformed JSON and an unknown model each get an error event', async () => {
    const client = await connect();
    expect((await client.turn({ type: 'response.cancel' }))[0]).toMatchObject({ type: 'error', status: 400 });
    expect((await client.turn({ type: 'response.create', model: 'nobody/nothing', input: 'hi' }))[0]).toMatchObject({ type: 'error' });
    const malformed = await new Promise<Json>((resolve) => {
      const socket = new WebSocket(`${rig.gw.url.replace('http', 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${rig.key}` } });
      socket.once('open', () => socket.send('{not json'));
      socket.once('message', (data) => { resolve(JSON.parse(String(data)) as Json); socket.close(); });
    });
    client.close();
    expect(malformed).toMatchObject({ type: 'error', status: 400, error: { code: 'request_malformed_json' } });
  });

  it('refuses a handshake without a gw key with 401, and a plain GET with 426', async () => {
    await expect(connect({})).rejects.toThrow('handshake 401');
    const plain = await fetch(`${rig.gw.url}/v1/responses`, { headers: { authorization: `Bearer ${rig.key}` } });
    expect(plain.status).toBe(426);
    expect(await plain.json()).toMatchObject({ error: { code: 'transport_upgrade_required' } });
  });
});
