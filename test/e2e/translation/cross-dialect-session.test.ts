// A Claude Code-shaped session (thinking + tools, streamed) on an OpenAI-shaped provider that
// emits Kimi-style ids (`functions.Bash:0`) and unsigned reasoning, then switching back to
// Anthropic: ids stay valid and distinct for the client, the provider gets its own ids back in
// the tool results, no forged signature reaches any provider, the drop is counted, and the
// session completes on Anthropic.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { startScriptedProvider, type ScriptedProvider } from './scripted-provider.js';

const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;
const BETAS = 'claude-code-20250219,interleaved-thinking-2025-05-14,prompt-caching-scope-2026-01-05';
const TOOLS: Anthropic.Tool[] = [
  { name: 'Bash', description: 'Runs a command.', input_schema: { type: 'object', properties: { command: { type: 'string' } } } },
  { name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
];

let gw: GatewayProcess;
let openai: ScriptedProvider;
let anthropic: ScriptedProvider;
let gemini: ScriptedProvider;

beforeAll(async () => {
  [openai, anthropic, gemini] = await Promise.all([startScriptedProvider(), startScriptedProvider(), startScriptedProvider()]);
  gw = await startGatewayProcess({ env: {
    GEMINI_API_KEY: 'AIzaUpstreamGeminiKey', GOOGLE_GEMINI_BASE_URL: gemini.url,
    OPENAI_API_KEY: 'sk-proj-upstream-kimi', OPENAI_BASE_URL: `${openai.url}/v1`,
    ANTHROPIC_API_KEY: 'sk-ant-api03-upstream-claude', ANTHROPIC_BASE_URL: anthropic.url, GW_LOG_LEVEL: 'warn',
  } });
}, 60_000);
afterAll(async () => { await gw?.stop(); await openai?.close(); await anthropic?.close(); await gemini?.close(); });

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ data: { id: 'chatcmpl-k', object: 'chat.completion.chunk', created: 1, model: 'kimi-k2', choices: [{ index: 0, delta, finish_reason: finish }] } });
const toolCall = (index: number, id: string, name: string, args: string) => ({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: args } }] });

/** Kimi's answer: unsigned reasoning, then tool calls with ids outside Anthropic's pattern. */
function kimiTurn(calls: Array<[string, string, string]>) {
  return () => ({ events: [
    chunk({ role: 'assistant', reasoning_content: 'Let me look around.' }),
    ...calls.map(([id, name, args], index) => chunk(toolCall(index, id, name, args))),
    chunk({}, 'tool_calls'),
    { data: { id: 'chatcmpl-k', object: 'chat.completion.chunk', created: 1, model: 'kimi-k2', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } } },
    { data: '[DONE]' },
  ] });
}

function client(): Anthropic {
  return new Anthropic({ apiKey: gw.bootstrapKey!, baseURL: gw.url, maxRetries: 0, defaultHeaders: { 'anthropic-beta': BETAS, 'x-claude-code-session-id': 'cross-1' } });
}

function toolResults(message: Anthropic.Message): Anthropic.ToolResultBlockParam[] {
  return message.content.filter((block) => block.type === 'tool_use').map((block) => ({ type: 'tool_result', tool_use_id: block.id, content: `ran ${block.name}` }));
}

function toolUseIds(message: Anthropic.Message): string[] {
  return message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
}

it('crosses to OpenAI-shaped ids and back to Anthropic without forged signatures or broken ids', async () => {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'what is in this folder?' }];
  const base = { max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools: TOOLS };

  openai.script(kimiTurn([['functions.Bash:0', 'Bash', '{"command":"ls"}'], ['functions.Read:1', 'Read', '{"path":"a.txt"}']]));
  const first = await client().messages.stream({ ...base, model: 'openai/kimi-k2', messages }).finalMessage();
  const firstIds = toolUseIds(first);
  expect(firstIds).toHaveLength(2);
  for (const id of firstIds) expect(id).toMatch(ANTHROPIC_ID);
  expect(new Set(firstIds).size).toBe(2);
  const thinking = first.content.find((block) => block.type === 'thinking');
  expect(thinking?.signature).toMatch(/^gwsig\.v1\.none\./);
  messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: toolResults(first) });

  openai.script(kimiTurn([['functions.Bash:2', 'Bash', '{"command":"cat a.txt"}']]));
  const second = await client().messages.stream({ ...base, model: 'openai/kimi-k2', messages }).finalMessage();
  const secondRequest = openai.requests.at(-1)!;
  const sent = secondRequest.json() as { messages: Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }> };
  expect(sent.messages.flatMap((message) => (message.tool_calls ?? []).map((call) => call.id))).toEqual(['functions.Bash:0', 'functions.Read:1']);
  expect(sent.messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual(['functions.Bash:0', 'functions.Read:1']);
  expect(secondRequest.bytes.toString('utf8')).not.toContain('gwsig');
  expect(toolUseIds(second)[0]).toMatch(ANTHROPIC_ID);
  expect(toolUseIds(second)[0]).not.toBe(firstIds[0]);
  messages.push({ role: 'assistant', content: second.content }, { role: 'user', content: toolResults(second) });

  anthropic.script(() => ({ json: { id: 'msg_final', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'a.txt holds notes.' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 50, output_tokens: 5 } } }));
  const third = await client().messages.create({ ...base, model: 'claude-sonnet-4-5', messages });
  expect(third.content).toEqual([{ type: 'text', text: 'a.txt holds notes.' }]);
  const atAnthropic = anthropic.requests.at(-1)!;
  const body = atAnthropic.json() as { messages: Array<{ content: Array<Record<string, unknown>> | string }> };
  const blocks = body.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : []));
  expect(blocks.filter((block) => block.type === 'thinking')).toEqual([]);
  const useIds = blocks.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
  const resultIds = blocks.filter((block) => block.type === 'tool_result').map((block) => String(block.tool_use_id));
  expect(useIds).toHaveLength(3);
  for (const id of [...useIds, ...resultIds]) expect(id).toMatch(ANTHROPIC_ID);
  expect(resultIds).toEqual(useIds);
  expect(atAnthropic.bytes.toString('utf8')).not.toContain('gwsig');
  expect(atAnthropic.headers['anthropic-beta']).toBe(BETAS);

  const metrics = await (await fetch(`${gw.url}/metrics`)).text();
  expect(metrics).toMatch(/gw_translation_warnings_total\{code="dropped:reasoning"\} [1-9]/);
}, 60_000);

it('Gemini thought signatures ride back to Gemini in a carrier and never reach Anthropic', async () => {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'list the folder' }];
  const base = { max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools: TOOLS };
  const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
  gemini.script(() => ({ json: { modelVersion: 'gemini-3.8-flash', usageMetadata: usage, candidates: [{ index: 0, finishReason: 'STOP', content: { role: 'model', parts: [
    { text: 'I should list it.', thought: true },
    { functionCall: { name: 'Bash', args: { command: 'ls' } }, thoughtSignature: 'R0VNLVNJRy0x' },
  ] } }] } }));
  const first = await client().messages.create({ ...base, model: 'gemini-3.8-flash', messages });
  expect(first.content.filter((block) => block.type === 'thinking').length).toBeGreaterThan(0);
  for (const block of first.content) if (block.type === 'thinking') expect(block.signature).toMatch(/^gwsig\.v1\./);
  for (const id of toolUseIds(first)) expect(id).toMatch(ANTHROPIC_ID);
  messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: toolResults(first) });

  gemini.script(() => ({ json: { modelVersion: 'gemini-3.8-flash', usageMetadata: usage, candidates: [{ index: 0, finishReason: 'STOP', content: { role: 'model', parts: [{ text: 'One file.' }] } }] } }));
  const second = await client().messages.create({ ...base, model: 'gemini-3.8-flash', messages });
  expect(second.content.find((block) => block.type === 'text')).toMatchObject({ text: 'One file.' });
  const atGemini = gemini.requests.at(-1)!;
  const contents = (atGemini.json() as { contents: Array<{ role: string; parts: Array<Record<string, unknown>> }> }).contents;
  const modelParts = contents.filter((entry) => entry.role === 'model').flatMap((entry) => entry.parts);
  expect(modelParts.find((part) => part.functionCall)?.thoughtSignature).toBe('R0VNLVNJRy0x');
  expect(atGemini.bytes.toString('utf8')).not.toContain('gwsig');
  messages.push({ role: 'assistant', content: second.content }, { role: 'user', content: 'thanks' });

  anthropic.script(() => ({ json: { id: 'msg_g', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'bye' }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 9, output_tokens: 1 } } }));
  const third = await client().messages.create({ ...base, model: 'claude-sonnet-4-5', messages });
  expect(third.content).toEqual([{ type: 'text', text: 'bye' }]);
  const atAnthropic = anthropic.requests.at(-1)!.bytes.toString('utf8');
  expect(atAnthropic).not.toContain('gwsig');
  expect(atAnthropic).not.toContain('R0VNLVNJRy0x');
}, 60_000);
