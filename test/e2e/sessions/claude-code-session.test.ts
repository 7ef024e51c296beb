// One real Claude Code run through gw (issue 29, lineage): `gw run claude` on a real gw serve with
// the fake Anthropic provider and an MCP server built with the SDK behind gw's /mcp. With the
// built-in tools off, the fake model calls the first tool it is offered: the MCP tool. Every
// record of the run (both model turns and the tool call) carries the one session id of the run
// (gw run names it with --session-id and hands it to /mcp as x-gw-session: Claude Code sends its
// session header to the model only), and the agent claude-code/<version>; `gw audit show
// --session` lists them in order.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GW_BIN, cleanEnv, runGwSetup as runGw } from '../../support/gateway-process.js';
import { CODING_TOOLS_DIR, missingTools } from '../coding-tools/run-coding-tool.js';
import { readSettledAudit, waitUntil } from '../helpers.js';
import { startRig, type Rig } from '../forwarding/support.js';

const SERVER_SCRIPT = path.resolve(import.meta.dirname, '../../support/mcp-servers/notes-server.mjs');
let rig: Rig;

beforeAll(async () => {
  const missing = missingTools();
  if (missing.length > 0) throw new Error(`coding tools missing in ${CODING_TOOLS_DIR}: ${missing.join(', ')}; run bash scripts/ensure-test-deps.sh`);
  rig = await startRig({ eventDelayMs: 5 });
  const added = await runGw(['mcp', 'add', 'notes', '--command', `${process.execPath} ${SERVER_SCRIPT} stdio local`], { home: rig.gw.home });
  expect(added.code, added.stderr).toBe(0);
  // The stdio server starts on first use: a tools/list now, so Claude Code's own listing is not the cold one.
  const client = new Client({ name: 'warm-up', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${rig.gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${rig.key}` } } }));
  // The gateway picks the new server up from state.json within its poll: list until it is there.
  await waitUntil(async () => (await client.listTools()).tools.some((tool) => tool.name === 'notes__contact'), { timeoutMs: 20_000, intervalMs: 250, what: 'the notes server\'s tools in /mcp' });
  await client.close();
}, 60_000);
afterAll(async () => { await rig?.close(); });

async function runClaude(): Promise<string> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'gw-session-home-'));
  const work = await mkdtemp(path.join(os.tmpdir(), 'gw-session-work-'));
  try {
    const child = spawn(process.execPath, [GW_BIN, 'run', 'claude', '-p', 'who should I ask', '--model', 'anthropic/claude-sonnet-4-5',
      '--tools', '', '--allowedTools', 'mcp__gw__notes__contact', '--output-format', 'json'], {
      cwd: work, stdio: ['ignore', 'pipe', 'pipe'],
      env: cleanEnv({ HOME: home, GW_HOME: rig.gw.home, GW_URL: rig.gw.url, PATH: `${path.join(CODING_TOOLS_DIR, 'node_modules', '.bin')}:${process.env.PATH}`, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' }),
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
    const code = await new Promise<number>((resolve) => child.once('close', (exit) => resolve(exit ?? -1)));
    expect(code, output).toBe(0);
    return output;
  } finally {
    await Promise.all([home, work].map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

it('every model and MCP record of one Claude Code run shares its session id', async () => {
  const output = await runClaude();
  expect(output, output).toContain('"num_turns":2');
  const sessionId = (JSON.parse(output.slice(output.indexOf('{'))) as { session_id?: string }).session_id;
  const records = (await readSettledAudit(rig.gw.home)).filter((line) => line.kind === 'request');
  const models = records.filter((line) => line.route === '/v1/messages');
  const tool = records.find((line) => (line.data as { mcp?: { method?: string } } | undefined)?.mcp?.method === 'tools/call');
  expect(models.length).toBeGreaterThanOrEqual(2);
  expect(tool).toBeDefined();
  const sessions = new Set([...models, tool!].map((line) => line.session));
  expect(sessions.size).toBe(1);
  const [session] = sessions;
  expect(session).toBe(sessionId);
  expect(models[0]!.agent).toMatch(/^claude-code\/\d+\.\d+\.\d+$/);

  const shown = await runGw(['audit', 'show', '--session', String(session), '--json'], { home: rig.gw.home });
  expect(shown.code, shown.stderr).toBe(0);
  const { calls } = JSON.parse(shown.stdout) as { calls: Array<{ operation: string; target: string }> };
  // Claude Code opens gw's /mcp and lists its tools and prompts (and resources) as it starts, concurrently, then the
  // turns. 2.1.337 opens with server/discover, which gw's records class as other (docs/wire-fidelity.md).
  const operations = calls.map((call) => call.operation);
  const turns = operations.indexOf('messages');
  expect(operations.slice(0, turns).every((operation) => operation.startsWith('mcp ')), operations.join(', ')).toBe(true);
  expect(operations.slice(0, turns)).toEqual(expect.arrayContaining(['mcp prompts/list', 'mcp tools/list']));
  expect(operations.slice(turns)).toEqual(['messages', 'mcp tools/call', 'messages']);
  expect(calls[turns + 1]!.target).toBe('notes/contact');
}, 180_000);
