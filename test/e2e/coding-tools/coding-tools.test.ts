// The coding tools of docs/compatibility.md (Claude Code, Codex,
// Gemini CLI, opencode), run headless as a user runs them, each completing one
// turn with a tool call through a real `gw serve` against each provider dialect
// (openai, anthropic, gemini, all fake providers on 127.0.0.1). The fakes call the
// tool's first tool with {"text": <prompt>}, which the tool runs (or refuses as
// invalid) and answers with a tool result; the fake then echoes the prompt, ending
// the turn. Each cell checks the tool's exit and final text, and that the provider
// received the tool result in its own dialect, answering the call it made.
// The tools come from scripts/ensure-test-deps.sh (a cache folder, ~1 GiB); when
// they are missing the tests fail and say so, they are never skipped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeProvider, RecordedRequest } from '../../support/fake-providers/index.js';
import { startRig, stopAndVerify, type Rig } from '../forwarding/support.js';
import { packageVersion, recordCells } from '../../support/compat-matrix.js';
import { CODING_TOOLS_DIR, missingTools, runCodingTool, type CodingTool, type OpencodeSdk, type ToolRun } from './run-coding-tool.js';
import type { WireJson } from '../../support/wire-json.js';

/** Each tool's row in the compatibility matrix (docs/compatibility.md, npm run compat): a turn streams text and makes a tool round trip. */
const MATRIX_ROWS: Record<CodingTool, { client: string; version: string }> = {
  claude: { client: 'Claude Code', version: packageVersion('@anthropic-ai/claude-code', `${CODING_TOOLS_DIR}/node_modules`) },
  codex: { client: 'Codex', version: packageVersion('@openai/codex', `${CODING_TOOLS_DIR}/node_modules`) },
  gemini: { client: 'Gemini CLI', version: packageVersion('@google/gemini-cli', `${CODING_TOOLS_DIR}/node_modules`) },
  opencode: { client: 'opencode', version: packageVersion('opencode-ai', `${CODING_TOOLS_DIR}/node_modules`) },
};

type ProviderDialect = 'openai' | 'anthropic' | 'gemini';

const MODELS: Record<ProviderDialect, string> = {
  openai: 'openai/gpt-4o',
  anthropic: 'anthropic/claude-sonnet-4-5',
  gemini: 'gemini/gemini-2.5-flash',
};

let rig: Rig;
beforeAll(async () => {
  const missing = missingTools();
  if (missing.length > 0) throw new Error(`coding tools missing in ${CODING_TOOLS_DIR}: ${missing.join(', ')}; run bash scripts/ensure-test-deps.sh`);
  rig = await startRig({ eventDelayMs: 5 });
}, 60_000);
afterAll(async () => { await rig?.close(); });

type Json = WireJson;

/** The tool result that ends `request` and the call it answers, read in the provider's own dialect. */
function lastToolResult(provider: ProviderDialect, request: RecordedRequest): { callId: string | undefined; answers: string | undefined; name: string | undefined } | undefined {
  const body = request.json as Json;
  if (provider === 'anthropic') {
    const messages = body.messages as Json[];
    const result = (messages.at(-1)?.content as Json[] | string | undefined);
    const block = Array.isArray(result) ? result.find((part) => part.type === 'tool_result') : undefined;
    if (!block) return undefined;
    const previous = messages.at(-2);
    const use = Array.isArray(previous?.content) ? (previous.content as Json[]).find((part) => part.type === 'tool_use') : undefined;
    return { callId: block.tool_use_id, answers: use?.id, name: use?.name };
  }
  if (provider === 'gemini') {
    const contents = body.contents as Json[];
    const response = (contents.at(-1)?.parts as Json[] | undefined)?.find((part) => part.functionResponse)?.functionResponse as Json | undefined;
    if (!response) return undefined;
    const call = (contents.at(-2)?.parts as Json[] | undefined)?.find((part) => part.functionCall)?.functionCall as Json | undefined;
    return { callId: response.name, answers: call?.name, name: call?.name };
  }
  if (request.path === '/v1/responses') {
    const input = body.input as Json[];
    const output = input.at(-1);
    if (output?.type !== 'function_call_output') return undefined;
    const call = input.findLast((item) => item.type === 'function_call');
    return { callId: output.call_id, answers: call?.call_id, name: call?.name };
  }
  const messages = body.messages as Json[];
  const tool = messages.at(-1);
  if (tool?.role !== 'tool') return undefined;
  const call = (messages.at(-2)?.tool_calls as Json[] | undefined)?.find((candidate) => candidate.id === tool.tool_call_id);
  return { callId: tool.tool_call_id, answers: call?.id, name: call?.function?.name };
}

function firstToolName(provider: ProviderDialect, request: RecordedRequest): string | undefined {
  const tools = ((request.json as Json).tools ?? []) as Json[];
  if (provider === 'gemini') return tools[0]?.functionDeclarations?.[0]?.name;
  if (provider === 'anthropic') return tools[0]?.name;
  return tools.find((tool) => tool.type === 'function')?.function?.name ?? tools.find((tool) => tool.type === 'function')?.name;
}

function describeRun(run: ToolRun, requests: RecordedRequest[]): string {
  return `exit ${run.code}\nstdout: ${run.stdout.slice(-3000)}\nstderr: ${run.stderr.slice(-3000)}\nprovider saw: ${requests.map((request) => `${request.method} ${request.path}`).join(', ')}`;
}

async function expectTurnWithToolCall(tool: CodingTool, provider: ProviderDialect, options: { model?: string; opencodeSdk?: OpencodeSdk } = {}): Promise<void> {
  const fake: FakeProvider = rig[provider];
  const prompt = `coding tools e2e ${tool}${options.opencodeSdk ? ` (${options.opencodeSdk})` : ''} to ${provider} ${Math.random().toString(36).slice(2, 8)}`;
  const run = await runCodingTool(tool, { gwUrl: rig.gw.url, key: rig.key, model: options.model ?? MODELS[provider], prompt, ...(options.opencodeSdk ? { opencodeSdk: options.opencodeSdk } : {}) });
  // The requests of this turn (others run at the same time): those carrying its prompt.
  const mine = fake.requests.filter((request) => request.method === 'POST' && request.body.includes(prompt));
  const context = describeRun(run, mine);

  expect(run.code, context).toBe(0);
  // The provider made a tool call (a request offering tools, not answering one) …
  const called = mine.find((request) => firstToolName(provider, request) !== undefined && lastToolResult(provider, request) === undefined);
  expect(called, `a request offering tools\n${context}`).toBeDefined();
  // … and got the tool's result back in its own dialect, answering that call.
  const answered = mine.find((request) => lastToolResult(provider, request) !== undefined);
  expect(answered, `a request ending with a tool result\n${context}`).toBeDefined();
  const result = lastToolResult(provider, answered!)!;
  expect(result.callId, context).toBeTruthy();
  expect(result.callId, context).toBe(result.answers);
  expect(result.name, context).toBe(firstToolName(provider, called!));
  // The tool shows the fake's final answer: the echo of the prompt.
  expect(run.finalText, context).toContain('echo: ');
  expect(run.finalText, context).toContain(prompt);
  if (run.toolCalls !== undefined) expect(run.toolCalls, context).toBeGreaterThanOrEqual(1);
}

const TOOLS: CodingTool[] = ['claude', 'codex', 'gemini', 'opencode'];
const PROVIDERS: ProviderDialect[] = ['openai', 'anthropic', 'gemini'];

// The turns are independent (each matches its own prompt), so they run side by side:
// most of their time is the tools' own start-up (opencode spends ~5 s of CPU before its first request).
describe.concurrent.each(TOOLS)('%s', (tool) => {
  it.each(PROVIDERS)(`completes a turn with a tool call against the %s dialect`, async (provider) => {
    await recordCells({ ...MATRIX_ROWS[tool], provider, capabilities: ['text', 'stream', 'tool round trip'] }, () => expectTurnWithToolCall(tool, provider));
  }, 110_000);
});

// opencode speaks whichever dialect its provider package does; the matrix above uses
// OpenAI-compatible chat. Its other packages, each to a provider of another dialect.
describe.concurrent('opencode with its other provider packages', () => {
  it('@ai-sdk/anthropic (Messages) to the openai dialect', async () => {
    await expectTurnWithToolCall('opencode', 'openai', { opencodeSdk: '@ai-sdk/anthropic' });
  }, 110_000);
  it('@ai-sdk/openai (Responses) to the gemini dialect', async () => {
    await expectTurnWithToolCall('opencode', 'gemini', { opencodeSdk: '@ai-sdk/openai' });
  }, 110_000);
  // @ai-sdk/google takes a model id with a slash as a whole resource path (no `models/`),
  // so gw's provider/model names are written `models/provider/model` there.
  it('@ai-sdk/google (GenAI) to the anthropic dialect', async () => {
    await expectTurnWithToolCall('opencode', 'anthropic', { opencodeSdk: '@ai-sdk/google', model: `models/${MODELS.anthropic}` });
  }, 110_000);
});

it('gw recorded every turn in an intact audit trail', async () => {
  await stopAndVerify(rig);
});
