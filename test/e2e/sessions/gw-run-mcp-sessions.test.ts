// `gw run codex`, `gw run gemini` and `gw run opencode` wire gw's /mcp the way `gw run claude`
// does (docs/sessions.md, "gw run and MCP"): each real tool, started by `gw run` with a fresh
// HOME and no MCP or session configuration of its own, against a real `gw serve` fronting an MCP
// server built with the official SDK. The fake Anthropic provider (every tool's model routes to
// it) asks for the MCP tool (notes/echo, however the tool names it), so the run makes a model
// call, a tool call through gw's /mcp, and a model call carrying the tool's result. Every record
// of the tool's run (model calls, the MCP handshake, listing and tool call) carries one session id,
// the one gw issued for the run, and no two runs share it.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GW_BIN, cleanEnv, runGwSetup as runGw } from '../../support/gateway-process.js';
import { CODING_TOOLS_DIR, missingTools } from '../coding-tools/run-coding-tool.js';
import { readAudit, readSettledAudit, sleep, type AuditLine } from '../helpers.js';
import { startRig, stopAndVerify, type Rig } from '../forwarding/support.js';

const SERVER_SCRIPT = path.resolve(import.meta.dirname, '../../support/mcp-servers/notes-server.mjs');
const MODEL = 'anthropic/claude-sonnet-4-5';
let rig: Rig;

beforeAll(async () => {
  const missing = missingTools();
  if (missing.length > 0) throw new Error(`coding tools missing in ${CODING_TOOLS_DIR}: ${missing.join(', ')}; run bash scripts/ensure-test-deps.sh`);
  rig = await startRig({ eventDelayMs: 2 });
  const added = await runGw(['mcp', 'add', 'notes', '--command', `${process.execPath} ${SERVER_SCRIPT} stdio local`], { home: rig.gw.home });
  expect(added.code, added.stderr).toBe(0);
  // gw run gives a tool /mcp only when the gateway says it fronts MCP servers (/health).
  const deadline = Date.now() + 20_000;
  for (;;) {
    const health = await (await fetch(`${rig.gw.url}/health`)).json() as { components?: { mcp?: unknown } };
    if (health.components?.mcp !== undefined) break;
    if (Date.now() > deadline) throw new Error(`gw serve never reported its MCP servers: ${JSON.stringify(health)}`);
    await sleep(250);
  }
}, 60_000);
afterAll(async () => { await rig?.close(); });

interface Run { code: number; stdout: string; stderr: string }

/** `gw run …` as a user types it, in an empty folder with a fresh HOME and the tools on the PATH. */
async function gwRun(args: string[], prepareHome?: (home: string) => Promise<void>): Promise<Run> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'gw-run-mcp-home-'));
  const work = await mkdtemp(path.join(os.tmpdir(), 'gw-run-mcp-work-'));
  try {
    await prepareHome?.(home);
    const child = spawn(process.execPath, [GW_BIN, ...args], {
      cwd: work, stdio: ['ignore', 'pipe', 'pipe'],
      env: cleanEnv({
        HOME: home, PATH: `${path.join(CODING_TOOLS_DIR, 'node_modules', '.bin')}:${process.env.PATH}`,
        GW_HOME: rig.gw.home, GW_URL: rig.gw.url,
        // What a user would rather keep quiet anyway; nothing here points a tool at gw or at /mcp.
        DISABLE_AUTOUPDATER: '1', GEMINI_CLI_TRUST_WORKSPACE: 'true',
        OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_SHARE: '1', OPENCODE_DISABLE_DEFAULT_PLUGINS: '1', npm_config_registry: 'http://127.0.0.1:9/',
      }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    const code = await new Promise<number>((resolve) => child.once('close', (exit) => resolve(exit ?? -1)));
    clearTimeout(timer);
    return { code, stdout, stderr };
  } finally {
    await Promise.all([home, work].map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

/** A user's own Gemini CLI settings: gw run gemini starts from a copy of them (quiet, one attempt). */
async function geminiUserSettings(home: string): Promise<void> {
  await mkdir(path.join(home, '.gemini'), { recursive: true });
  await writeFile(path.join(home, '.gemini', 'settings.json'), JSON.stringify({
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 1 },
  }));
}

// The user's own arguments: headless, and (as for Claude Code's --allowedTools) the tool's own way of
// letting gw's MCP tools run without a confirmation nobody can give headless; gw run approves nothing itself.
// Codex's apps, plugins and tool suggestions off (as the harness has them): with them on it offers MCP tools
// behind its tool_search tool, which a real model calls first and the scripted fake model does not.
const CASES = {
  codex: { args: ['exec', '--skip-git-repo-check', '--ephemeral', '--json', '-m', MODEL, '-c', 'mcp_servers.gw.default_tools_approval_mode="approve"', '-c', 'features.apps=false', '-c', 'features.tool_suggest=false', '-c', 'features.plugins=false'] },
  gemini: { args: ['-m', MODEL, '-o', 'json', '--approval-mode', 'yolo', '-p'], prepareHome: geminiUserSettings },
  opencode: { args: ['run', '-m', `gw/${MODEL}`, '--format', 'json'] },
} as const;

const mcpMethod = (line: AuditLine) => (line.data as { mcp?: { method?: string } } | undefined)?.mcp?.method;
const sessions = new Map<string, string>();

// One tool at a time: each run's records are those written while it ran.
describe.each(['codex', 'gemini', 'opencode'] as const)('gw run %s', (tool) => {
  it('gives the tool gw\'s /mcp, and its model calls and MCP tool call share the one session gw issued', async () => {
    const prompt = `gw run mcp e2e ${tool}`;
    rig.anthropic.setBehaviour({ toolCall: { name: 'notes__echo', suffix: true, input: { text: `from gw run ${tool}` } } });
    const before = (await readAudit(rig.gw.home)).length;
    const asked = rig.anthropic.requests.length;
    const run = await gwRun(['run', tool, ...CASES[tool].args, prompt], 'prepareHome' in CASES[tool] ? CASES[tool].prepareHome : undefined);
    rig.anthropic.setBehaviour(undefined);
    const context = `exit ${run.code}\nstdout: ${run.stdout.slice(-3000)}\nstderr: ${run.stderr.slice(-3000)}`;
    expect(run.code, context).toBe(0);
    // The tool's records: gw run's own check that the gateway takes the run's key (a bare GET /v1/models
    // before the tool starts, no agent) is gw's, not the agent's work, and belongs to no session.
    const ownCheck = (line: AuditLine) => line.route === '/v1/models' && line.agent === undefined;
    const records = (await readSettledAudit(rig.gw.home)).slice(before).filter((line) => line.kind === 'request' && !ownCheck(line));
    const trail = records.map((line) => [line.route, mcpMethod(line) ?? line.operation, line.session ?? '-', line.agent ?? '-'].map(String).join(' ')).join('\n');
    const models = records.filter((line) => line.route !== '/mcp' && line.operation !== 'mcp');
    const toolCalls = records.filter((line) => mcpMethod(line) === 'tools/call');
    expect(models.length, context).toBeGreaterThanOrEqual(2);
    // The tool call reached the notes server through gw's /mcp, and its answer went back to the model.
    expect(toolCalls, `${context}\n${trail}`).toHaveLength(1);
    expect((toolCalls[0]!.data as { mcp: { server: string; tool: string; status: string } }).mcp).toMatchObject({ server: 'notes', tool: 'echo', status: 'ok' });
    const laterAsks = rig.anthropic.requests.slice(asked).map((request) => JSON.stringify(request.json) ?? '');
    expect(laterAsks.some((text) => text.includes(`local echo: from gw run ${tool}`)), context).toBe(true);
    // Every record of the run carries one session id, a fresh one gw issued (no run reuses another's).
    const seen = new Set(records.map((line) => line.session));
    expect(seen.size, trail).toBe(1);
    const session = [...seen][0];
    expect(session).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect([...sessions.values()]).not.toContain(session);
    sessions.set(tool, session!);

    const shown = await runGw(['audit', 'show', '--session', session!, '--json'], { home: rig.gw.home });
    expect(shown.code, shown.stderr).toBe(0);
    const calls = (JSON.parse(shown.stdout) as { calls: Array<{ operation: string; target: string | null }> }).calls;
    expect(calls.filter((call) => call.operation === 'mcp tools/call').map((call) => call.target)).toEqual(['notes/echo']);
    expect(calls.filter((call) => !call.operation.startsWith('mcp ')).length).toBe(models.length);
  }, 300_000);
});

it('gw recorded every run in an intact audit trail', async () => {
  await stopAndVerify(rig);
}, 60_000);
