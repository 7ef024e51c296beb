// Codex's remote compaction on /responses: a `compaction_trigger` input item asks for it, and a
// `compaction` output item (its `cmp_*` id beside `encrypted_content`) is replayed on later turns.
// Same format both pass untouched both ways; to a provider of another format the call is refused
// in the Responses error shape before anything leaves (never a silent drop of the history).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { startScriptedProvider, type ScriptedProvider } from './scripted-provider.js';

const COMPACTION_ITEM = '{"type":"compaction","id":"cmp_0a1b2c3d4e","encrypted_content":"gAAAAABpQ1-opaque+/=state=="}';

let gw: GatewayProcess;
let openai: ScriptedProvider;
let anthropic: ScriptedProvider;
let affinityGw: GatewayProcess;
let accountA: ScriptedProvider;
let accountB: ScriptedProvider;

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

function post(body: string, session = '019a-session', base = gw.url): Promise<Response> {
  return fetch(`${base}/v1/responses`, {
    method: 'POST', body,
    headers: {
      'content-type': 'application/json', authorization: `Bearer ${base === gw.url ? gw.bootstrapKey! : affinityGw.bootstrapKey!}`, accept: 'text/event-stream',
      originator: 'codex_exec', 'session-id': session, 'thread-id': '019a-thread', 'user-agent': 'codex_exec/0.171.0',
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

describe('affinity: a Codex session replays its compaction to the account that made it', () => {
  beforeAll(async () => {
    [accountA, accountB] = await Promise.all([startScriptedProvider(), startScriptedProvider()]);
    const home = await makeHome('gw-compaction-');
    for (const args of [
      ['providers', 'add', 'account-a', '--kind', 'openai', '--base-url', `${accountA.url}/v1`, '--api-key', 'sk-proj-account-a'],
      ['providers', 'add', 'account-b', '--kind', 'openai', '--base-url', `${accountB.url}/v1`, '--api-key', 'sk-proj-account-b'],
      ['routes', 'add', 'codex', '--target', 'account-a/gpt-5.6-codex,weight=1', '--target', 'account-b/gpt-5.6-codex,weight=1'],
    ]) {
      const result = await runGw(args, { home });
      expect(result.code, result.stderr).toBe(0);
    }
    affinityGw = await startGatewayProcess({ home, env: { GW_LOG_LEVEL: 'warn' } });
  }, 60_000);
  afterAll(async () => { await affinityGw?.stop(); await accountA?.close(); await accountB?.close(); });

  it('every turn of one session-id goes to one account (key included); other sessions spread', async () => {
    // session-id is not forwarded upstream: which account served a session is read from the request counts.
    const sessions = ['019ac1f2-7a3b-7c4d-8e5f-1a2b3c4d5e6f', '019ac1f2-7a3b-7c4d-8e5f-9f8e7d6c5b4a', '019ac1f3-0000-7abc-9def-0123456789ab', '3f2a9c1e-codex', 'b7e41d90-codex', '71f0e9d8-codex'];
    const served: string[] = [];
    for (const session of sessions) {
      const before = [accountA.requests.length, accountB.requests.length];
      accountA.script(completedEvents, completedEvents, completedEvents);
      accountB.script(completedEvents, completedEvents, completedEvents);
      const trigger = await post(codexBody('codex', '{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]},{"type":"compaction_trigger"}'), session, affinityGw.url);
      expect(trigger.status, await trigger.text()).toBe(200);
      for (let turn = 0; turn < 2; turn += 1) {
        const replay = await post(codexBody('codex', `${COMPACTION_ITEM},{"type":"message","role":"user","content":[{"type":"input_text","text":"turn ${turn}"}]}`), session, affinityGw.url);
        expect(replay.status, await replay.text()).toBe(200);
      }
      const counts = [accountA.requests.length - before[0]!, accountB.requests.length - before[1]!];
      expect(counts.sort()).toEqual([0, 3]);
      const account = accountA.requests.length > before[0]! ? accountA : accountB;
      const keys = account.requests.slice(-3).map((request) => String(request.headers.authorization));
      expect(new Set(keys)).toEqual(new Set([account === accountA ? 'Bearer sk-proj-account-a' : 'Bearer sk-proj-account-b']));
      expect(account.requests.at(-1)!.bytes.toString('utf8')).toContain(COMPACTION_ITEM);
      served.push(account === accountA ? 'a' : 'b');
    }
    expect(new Set(served)).toEqual(new Set(['a', 'b']));
  }, 120_000);
});
