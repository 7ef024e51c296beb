// The proof of issue 29's lineage with the real coding tools: Claude Code, Codex, Gemini CLI and
// opencode (the versions test/e2e/coding-tools installs), each run headless through a real
// `gw serve` with gw's /mcp as its MCP server (an MCP server built with the official SDK behind
// it), the way a team would configure them: the run's session id on the model calls (Claude
// Code's --session-id; x-gw-session through each other tool's own custom-header setting) and on
// the MCP server entry. The fake Anthropic provider (every tool's model is routed to it) calls the
// tool's MCP tool (notes/echo, as the tool names it), so each run makes a model call, a tool call
// through /mcp, and a model call with the tool's result. Every model and MCP record of the run
// carries the run's one session id and names the tool as its agent, and `gw audit show --session`
// lists the run's model calls with its MCP tool call in order.
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup as runGw } from '../../support/gateway-process.js';
import { CODING_TOOLS_DIR, missingTools, runCodingTool, type CodingTool } from '../coding-tools/run-coding-tool.js';
import { readAudit, readSettledAudit, type AuditLine } from '../helpers.js';
import { startRig, stopAndVerify, type Rig } from '../forwarding/support.js';

const SERVER_SCRIPT = path.resolve(import.meta.dirname, '../../support/mcp-servers/notes-server.mjs');
const MODEL = 'anthropic/claude-sonnet-4-5';
const AGENTS: Record<CodingTool, RegExp> = {
  claude: /^claude-code\/\d+\.\d+\.\d+$/, codex: /^codex\/\d+\.\d+\.\d+$/, gemini: /^gemini-cli\/\d+\.\d+\.\d+$/, opencode: /^opencode\/\d+\.\d+\.\d+$/,
};
let rig: Rig;

beforeAll(async () => {
  const missing = missingTools();
  if (missing.length > 0) throw new Error(`coding tools missing in ${CODING_TOOLS_DIR}: ${missing.join(', ')}; run bash scripts/ensure-test-deps.sh`);
  rig = await startRig({ eventDelayMs: 2 });
  const added = await runGw(['mcp', 'add', 'notes', '--command', `${process.execPath} ${SERVER_SCRIPT} stdio local`], { home: rig.gw.home });
  expect(added.code, added.stderr).toBe(0);
  // The stdio server starts on first use: a listing now, so no tool's own listing is the cold one.
  const client = new Client({ name: 'warm-up', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${rig.gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${rig.key}` } } }));
  expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('notes__echo');
  await client.close();
}, 60_000);
afterAll(async () => { await rig?.close(); });

const mcpMethod = (line: AuditLine) => (line.data as { mcp?: { method?: string } } | undefined)?.mcp?.method;

interface ShownCall { ts: string; latency_ms: number | null; operation: string; target: string | null; agent: string | null; input_tokens: number; output_tokens: number; cost_nano_usd: number | null; outcome: string[] }

// One tool at a time: each run's records are those written while it ran.
describe.each(['claude', 'codex', 'gemini', 'opencode'] as const)('%s', (tool) => {
  it('one run: its model calls and its MCP tool call share one session id, and gw audit show --session lists them', async () => {
    const session = randomUUID();
    const prompt = `session view e2e ${tool} ${session.slice(0, 8)}`;
    rig.anthropic.setBehaviour({ toolCall: { name: 'notes__echo', suffix: true, input: { text: `from ${tool}` } } });
    const before = (await readAudit(rig.gw.home)).length;
    const run = await runCodingTool(tool, { gwUrl: rig.gw.url, key: rig.key, model: MODEL, prompt, session: { id: session, mcp: true }, timeoutMs: 150_000 });
    rig.anthropic.setBehaviour(undefined);
    const context = `exit ${run.code}\nstdout: ${run.stdout.slice(-3000)}\nstderr: ${run.stderr.slice(-3000)}`;
    expect(run.code, context).toBe(0);
    const records = (await readSettledAudit(rig.gw.home)).slice(before).filter((line) => line.kind === 'request');
    const models = records.filter((line) => line.route !== '/mcp' && line.operation !== 'mcp');
    const toolCalls = records.filter((line) => mcpMethod(line) === 'tools/call');
    // The model calls: the one that called the tool, and the one with its result (opencode adds a title call).
    expect(models.length, context).toBeGreaterThanOrEqual(2);
    expect(toolCalls, context).toHaveLength(1);
    expect((toolCalls[0]!.data as { mcp: { server: string; tool: string; status: string } }).mcp).toMatchObject({ server: 'notes', tool: 'echo', status: 'ok' });
    // Every record of the run, model and MCP (listing and handshake too), carries the run's one session.
    expect(new Set(records.map((line) => line.session))).toEqual(new Set([session]));
    for (const line of models) expect(line.agent, JSON.stringify(line)).toMatch(AGENTS[tool]);

    const shown = await runGw(['audit', 'show', '--session', session, '--json'], { home: rig.gw.home });
    expect(shown.code, shown.stderr).toBe(0);
    const calls = (JSON.parse(shown.stdout) as { calls: ShownCall[] }).calls;
    const operations = calls.map((call) => call.operation);
    const toolAt = operations.indexOf('mcp tools/call');
    expect(calls[toolAt]!.target).toBe('notes/echo');
    // A model call asked for the tool before it ran, and one carried its result after. The trail
    // lists calls as they end, and a client may run the tool while the asking stream is still
    // open (Codex does), so the order is judged by when each call started.
    const startOf = (call: ShownCall) => Date.parse(call.ts) - (call.latency_ms ?? 0);
    const modelStarts = calls.filter((call) => !call.operation.startsWith('mcp ')).map(startOf);
    const toolCall = calls[toolAt]!;
    expect(modelStarts.some((start) => start <= startOf(toolCall)), operations.join(', ')).toBe(true);
    expect(modelStarts.some((start) => start >= startOf(toolCall)), operations.join(', ')).toBe(true);
    expect(calls.filter((call) => !call.operation.startsWith('mcp ')).length).toBe(models.length);
    for (const call of calls.filter((entry) => !entry.operation.startsWith('mcp '))) {
      expect(call.input_tokens).toBeGreaterThan(0);
      expect(call.cost_nano_usd).toBeGreaterThan(0);
    }
    const text = await runGw(['audit', 'show', '--session', session], { home: rig.gw.home });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('notes/echo');
    expect(text.stdout).toMatch(new RegExp(`total\\s+${calls.length} calls`));
  }, 200_000);
});

it('gw recorded every run in an intact audit trail', async () => {
  await stopAndVerify(rig);
}, 60_000);
