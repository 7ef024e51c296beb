// `gw run <tool>` (issue 14): each coding tool, launched by gw with a fresh HOME and no
// configuration of its own, completes a turn with a tool call through a real gw serve on
// the fake providers; the tool's own arguments pass through untouched and its exit code
// comes back. `gw token` prints a key the gateway accepts. And with no gateway answering,
// gw run starts one in the background.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GW_BIN, cleanEnv, makeHome } from '../../support/gateway-process.js';
import { startRig, type Rig } from '../forwarding/support.js';
import { freePort } from '../../support/database-servers.js';
import { CODING_TOOLS_DIR, missingTools } from './run-coding-tool.js';

let rig: Rig;
beforeAll(async () => {
  const missing = missingTools();
  if (missing.length > 0) throw new Error(`coding tools missing in ${CODING_TOOLS_DIR}: ${missing.join(', ')}; run bash scripts/ensure-test-deps.sh`);
  rig = await startRig({ eventDelayMs: 5 });
}, 60_000);
afterAll(async () => { await rig?.close(); });

interface Run { code: number; stdout: string; stderr: string }

/** `gw run …` as a user types it, in an empty folder with a fresh HOME and the tools on the PATH. */
async function gwRun(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'gw-run-home-'));
  const work = await mkdtemp(path.join(os.tmpdir(), 'gw-run-work-'));
  try {
    const child = spawn(process.execPath, [GW_BIN, ...args], {
      cwd: work, stdio: ['ignore', 'pipe', 'pipe'],
      env: cleanEnv({
        HOME: home, PATH: `${path.join(CODING_TOOLS_DIR, 'node_modules', '.bin')}:${process.env.PATH}`,
        GW_HOME: rig.gw.home, GW_URL: rig.gw.url,
        // What a user would rather keep quiet anyway; nothing here points a tool at gw.
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', GEMINI_CLI_TRUST_WORKSPACE: 'true',
        OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', npm_config_registry: 'http://127.0.0.1:9/',
        ...env,
      }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    const code = await new Promise<number>((resolve) => child.once('close', (exit) => resolve(exit ?? -1)));
    return { code, stdout, stderr };
  } finally {
    await Promise.all([home, work].map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

const PROMPT = 'gw run turn';
const CASES: Array<[string, string[], 'anthropic' | 'openai' | 'gemini']> = [
  ['claude', ['-p', PROMPT, '--model', 'anthropic/claude-sonnet-4-5', '--output-format', 'json'], 'anthropic'],
  ['codex', ['exec', '--skip-git-repo-check', '--ephemeral', '--json', '-m', 'openai/gpt-4o', PROMPT], 'openai'],
  ['gemini', ['-p', PROMPT, '-m', 'gemini/gemini-2.5-flash', '-o', 'json'], 'gemini'],
  ['opencode', ['run', '-m', 'gw/openai/gpt-4o', '--format', 'json', PROMPT], 'openai'],
];

describe('gw run <tool> completes a turn with a tool call', () => {
  it.each(CASES)('%s', async (tool, args, provider) => {
    const fake = rig[provider];
    const before = fake.requests.length;
    const run = await gwRun(['run', tool, ...args]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain(PROMPT);
    // The fake answers the first request with a tool call; the tool ran it and sent its result back.
    expect(fake.requests.length - before).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(fake.requests.at(-1)!.json)).toMatch(/tool_result|function_call_output|functionResponse|"role":"tool"/);
  }, 120_000);
});

it('passes the tool\'s exit code back', async () => {
  const run = await gwRun(['run', 'claude', '--definitely-not-a-claude-flag']);
  expect(run.code).not.toBe(0);
});

it('gw token prints a key the gateway accepts (Claude Code\'s apiKeyHelper)', async () => {
  const run = await gwRun(['token']);
  expect(run.code, run.stderr).toBe(0);
  const key = run.stdout.trim();
  expect(key).toMatch(/^sk-gw-/);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const response = await fetch(`${rig.gw.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] }) });
  expect(response.status).toBe(200);
});

it('starts a gateway in the background when none answers, and the tool is served by it', async () => {
  const home = await makeHome('gw-run-start-');
  const port = await freePort();
  const run = await gwRun(['run', 'claude', '-p', 'started for me', '--output-format', 'json'], { GW_HOME: home, GW_URL: `http://127.0.0.1:${port}` });
  try {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/started gw serve in the background \(pid \d+/);
    expect(run.stdout).toContain('mock reply');
  } finally {
    const pid = /pid (\d+)/.exec(run.stderr)?.[1];
    if (pid) process.kill(Number(pid), 'SIGTERM');
  }
}, 120_000);
