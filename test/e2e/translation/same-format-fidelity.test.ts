// Same format (Anthropic client → Anthropic provider): what Claude Code sends this month (new
// fields, new betas, 40k-character tool descriptions, signed thinking) reaches the provider byte
// for byte, whatever gw's codecs know about, with only the model patched when a route renames it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { startScriptedProvider, type ScriptedProvider } from './scripted-provider.js';

const BETAS = 'claude-code-20250219,interleaved-thinking-2025-05-14,prompt-caching-scope-2026-01-05,effort-2025-11-24,context-1m-2025-08-07,cache-diagnosis-2026-04-07,fast-mode-2026-02-01';
const SIGNATURE = 'EqQBCkYIBhgCKkDx+/=Zm9yZ2Vk//AAAA==\u2028keep';
const LONG_DESCRIPTION = `Runs a shell command. ${'Use it with care; quote paths with spaces. '.repeat(930)}`;

let gw: GatewayProcess;
let anthropic: ScriptedProvider;

beforeAll(async () => {
  anthropic = await startScriptedProvider();
  gw = await startGatewayProcess({ env: { ANTHROPIC_API_KEY: 'sk-ant-api03-upstream-fidelity', ANTHROPIC_BASE_URL: anthropic.url, GW_LOG_LEVEL: 'warn' } });
}, 60_000);
afterAll(async () => { await gw?.stop(); await anthropic?.close(); });

/** A Claude Code-shaped body, written by hand so its key order, spacing and escapes are not JSON.stringify's. */
function claudeCodeBody(model: string): string {
  return `{"model": "${model}",  "max_tokens":32000,"stream":false,
  "speed":"fast","diagnostics":{"previous_message_id":"msg_01PrevPrev"},
  "thinking":{"type":"adaptive"},"output_config":{"effort":"high"},
  "context_management":{"edits":[{"type":"clear_thinking_20251015","keep":"all"}]},
  "metadata":{"user_id":"{\\"device_id\\":\\"d1\\",\\"session_id\\":\\"s1\\"}"},
  "system":[{"type":"text","text":"You are Claude Code.","cache_control":{"type":"ephemeral","ttl":"1h","scope":"global"}}],
  "tools":[{"name":"Bash","description":${JSON.stringify(LONG_DESCRIPTION)},"input_schema":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]},"eager_input_streaming":true}],
  "messages":[
    {"role":"user","content":[{"type":"text","text":"list files \\u00e9\\/"}]},
    {"role":"assistant","content":[{"type":"thinking","thinking":"I should run ls.","signature":${JSON.stringify(SIGNATURE)}},{"type":"tool_use","id":"toolu_01A","name":"Bash","input":{"command":"ls"}}]},
    {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01A","content":"a.txt"}]},
    {"role":"system","content":"mid-conversation system"}
  ],"a_field_from_next_month":{"nested":[1,2.50,true,null]}}`;
}

const answer = () => ({ json: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-opus-4-8', content: [{ type: 'text', text: 'a.txt' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } });

async function post(body: string): Promise<Response> {
  return fetch(`${gw.url}/v1/messages?beta=true`, {
    method: 'POST', body,
    headers: {
      'content-type': 'application/json', 'x-api-key': gw.bootstrapKey!, 'anthropic-version': '2023-06-01', 'anthropic-beta': BETAS,
      'x-app': 'cli', 'x-claude-code-session-id': 'fidelity-session-1', 'user-agent': 'claude-cli/2.1.332 (external, sdk-cli)',
    },
  });
}

it('unknown fields, betas, a 40k description and a thinking signature pass byte for byte', async () => {
  expect(LONG_DESCRIPTION.length).toBeGreaterThan(40_000);
  anthropic.script(answer);
  const body = claudeCodeBody('claude-opus-4-8');
  const response = await post(body);
  expect(response.status, await response.clone().text()).toBe(200);
  const seen = anthropic.requests.at(-1)!;
  expect(seen.bytes.equals(Buffer.from(body))).toBe(true);
  expect(seen.headers['anthropic-beta']).toBe(BETAS);
  expect(seen.headers['anthropic-version']).toBe('2023-06-01');
  expect(seen.path).toBe('/v1/messages?beta=true');
}, 30_000);

it('a route that renames the model patches the model and nothing else', async () => {
  anthropic.script(answer);
  const body = claudeCodeBody('anthropic/claude-opus-4-8');
  const response = await post(body);
  expect(response.status, await response.clone().text()).toBe(200);
  const seen = anthropic.requests.at(-1)!;
  expect(seen.bytes.toString('utf8')).toBe(body.replace('"anthropic/claude-opus-4-8"', '"claude-opus-4-8"'));
  expect(seen.headers['anthropic-beta']).toBe(BETAS);
}, 30_000);
