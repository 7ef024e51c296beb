// Codex's remote compaction on /responses: a `compaction_trigger` input item asks for it, and a
// `compaction` output item (its `cmp_*` id beside `encrypted_content`) is replayed on later turns.
// Same format both pass untouched both ways; to a provider of another format the call is refused
// in the Responses error shape before anything leaves (never a silent drop of the history).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { startScriptedProvider, type ScriptedProvider } from './scripted-provider.js';

const COMPACTION_ITEM = '{"type":"compaction","id":"cmp_0a1b2c3d4e","encrypted_content":"gAAAAABpQ1-opaque+/=state=="}';

let gw: GatewayProcess;
let openai: ScriptedProvider;
let anthropic: ScriptedProvider;

beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startScriptedProvider(), startScriptedProvider()]);
  gw = await startGatewayProcess({ env: {
    OPENAI_API_KEY: 'sk-proj-upstream-codex', OPENAI_BASE_URL: `${openai.url}/v1`,
    ANTHROPIC_API_KEY: 'sk-ant-api03-upstream-claude', ANTHROPIC_BASE_URL: anthropic.url, GW_LOG_LEVEL: 'warn',
  } });
}, 60_000);
afterAll(async () => { await gw?.stop(); await openai?.close(); await anthropic?.close(); });

function codexBody(model: string, items: string): string {
  return `{"model":"${model}","instructions":null,"input":[{"type":"message","role":"developer","content":[{"type":"input_text","text":"be brief"}]},${items}],"tools":[],"store":false,"stream":true,"include":["reasoning.encrypted_content"],"prompt_cache_key":"019a-thread","reasoning":{"summary":"auto"},"client_metadata":{"x":"y"}}`;
}

function post(body: string): Promise<Response> {
  return fetch(`${gw.url}/v1/responses`, {
    method: 'POST', body,
    headers: {
      'content-type': 'application/json', authorization: `Bearer ${gw.bootstrapKey!}`, accept: 'text/event-stream',
      originator: 'codex_exec', 'session-id': '019a-session', 'thread-id': '019a-thread', 'user-agent': 'codex_exec/0.171.0',
    },
  });
}

const completedEvents = () => ({ events: [
  { event: 'response.created', data: { type: 'response.created', sequence_number: 0, response: { id: 'resp_1', object: 'response', status: 'in_progress', output: [] } } },
  { event: 'response.output_item.done', data: `{"type":"response.output_item.done","sequence_number":1,"output_index":0,"item":${COMPACTION_ITEM}}` },
  { event: 'response.completed', data: `{"type":"response.completed","sequence_number":2,"response":{"id":"resp_1","object":"response","status":"completed","output":[${COMPACTION_ITEM}],"usage":{"input_tokens":900,"output_tokens":40,"total_tokens":940}}}` },
] });

it('same format: the compaction_trigger reaches the provider and the compaction item reaches Codex untouched', async () => {
  openai.script(completedEvents);
  const body = codexBody('gpt-5.6-codex', '{"type":"message","role":"user","content":[{"type":"input_text","text":"go on"}]},{"type":"compaction_trigger"}');
  const response = await post(body);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const seen = openai.requests.at(-1)!;
  expect(seen.path).toBe('/v1/responses');
  expect(seen.bytes.toString('utf8')).toBe(body);
  expect(text).toContain(`"item":${COMPACTION_ITEM}`);
  expect(text).toContain(`"output":[${COMPACTION_ITEM}]`);
}, 30_000);

it('same format: the compacted item replayed on the next turn reaches the provider byte for byte, cmp_ id beside it', async () => {
  openai.script(completedEvents);
  const body = codexBody('gpt-5.6-codex', `${COMPACTION_ITEM},{"type":"message","role":"user","content":[{"type":"input_text","text":"next"}]}`);
  const response = await post(body);
  expect(response.status, await response.text()).toBe(200);
  expect(openai.requests.at(-1)!.bytes.toString('utf8')).toBe(body);
}, 30_000);

it.each([
  ['compaction_trigger', '{"type":"compaction_trigger"}'],
  ['compaction', COMPACTION_ITEM],
])('across dialects a %s item is refused in the Responses error shape, nothing sent', async (type, item) => {
  const before = anthropic.requests.length;
  const response = await post(codexBody('anthropic/claude-sonnet-4-5', `{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]},${item}`));
  expect(response.status).toBe(400);
  const body = await response.json() as { error: { message: string; type: string; code: string } };
  expect(body.error.type).toBe('invalid_request_error');
  expect(body.error.code).toBe('translation_compaction');
  expect(body.error.message).toContain(type);
  expect(anthropic.requests.length).toBe(before);
}, 30_000);
