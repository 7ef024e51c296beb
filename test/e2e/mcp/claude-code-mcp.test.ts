// Claude Code (headless) calls an MCP tool through gw during a turn (issue 17): a laptop
// logged in to a real hub (device login), an MCP server (built with the SDK) on the laptop's
// sidecar, and `gw run claude`, which gives Claude Code gw's /mcp. With the built-in tools
// off, the model (the hub's fake Anthropic provider) calls the first tool it is offered: the
// MCP tool. The call is in the sidecar's trail with the person from the device login.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GW_BIN, cleanEnv, makeHome, runGwSetup as runGw } from '../../support/gateway-process.js';
import { CODING_TOOLS_DIR, missingTools } from '../coding-tools/run-coding-tool.js';
import { NO_KEYCHAIN, PERSON, TEAM, runChecked, startHubRig, startLogin, type HubRig } from '../device-login/support.js';
import { readAudit, sleep } from '../helpers.js';

const SERVER_SCRIPT = path.resolve(import.meta.dirname, '../../support/mcp-servers/notes-server.mjs');
let rig: HubRig;

beforeAll(async () => {
  const missing = missingTools();
  if (missing.length > 0) throw new Error(`coding tools missing in ${CODING_TOOLS_DIR}: ${missing.join(', ')}`);
  rig = await startHubRig();
}, 60_000);
afterAll(async () => { await rig?.close(); });

it('Claude Code, through gw run on a sidecar, calls an MCP tool in a turn; the trail names the person', async () => {
  const laptop = await makeHome('gw-mcp-laptop-');
  const login = startLogin(rig.hub.url, laptop, NO_KEYCHAIN);
  await runChecked(['device', 'approve', await login.code, '--person', PERSON], rig.hub.home);
  expect(await login.exited).toBe(0);
  const added = await runGw(['mcp', 'add', 'notes', '--command', `${process.execPath} ${SERVER_SCRIPT} stdio laptop`], { home: laptop, env: NO_KEYCHAIN });
  expect(added.code, added.stderr).toBe(0);
  const sidecar = await rig.jar.start({ home: laptop, env: { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'warn' } });

  const home = await mkdtemp(path.join(os.tmpdir(), 'gw-claude-mcp-home-'));
  const work = await mkdtemp(path.join(os.tmpdir(), 'gw-claude-mcp-work-'));
  try {
    const child = spawn(process.execPath, [GW_BIN, 'run', 'claude', '-p', 'who should I ask', '--model', 'anthropic/claude-sonnet-4-5',
      '--tools', '', '--allowedTools', 'mcp__gw__notes__contact', '--output-format', 'json'], {
      cwd: work, stdio: ['ignore', 'pipe', 'pipe'],
      env: cleanEnv({ ...NO_KEYCHAIN, HOME: home, GW_HOME: laptop, GW_URL: sidecar.url, PATH: `${path.join(CODING_TOOLS_DIR, 'node_modules', '.bin')}:${process.env.PATH}`, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        // The MCP tool must be listed before the first model call; a loaded machine once started the turn without it.
        MCP_TIMEOUT: '60000' }),
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
    const code = await new Promise<number>((resolve) => child.once('close', (exit) => resolve(exit ?? -1)));
    expect(code, output).toBe(0);
    expect(output).toContain('"num_turns":2');
  } finally {
    await Promise.all([home, work].map((dir) => rm(dir, { recursive: true, force: true })));
  }
  // The tool result went back to the model: the hub's fake saw it in Claude Code's next request.
  expect(JSON.stringify(rig.fakes.anthropic.requests.at(-1)!.json)).toContain('tool_result');
  await sleep(1200);
  const call = (await readAudit(laptop)).find((record) => (record.data?.mcp as { method?: string } | undefined)?.method === 'tools/call');
  expect(call).toMatchObject({ person: PERSON, team: TEAM, route: '/mcp', data: { mcp: { method: 'tools/call', server: 'notes', tool: 'contact' } } });
}, 120_000);
