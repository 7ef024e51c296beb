// Every line `gw serve` prints for people to paste runs as printed (issue 14): the
// standalone banner's curl, Claude Code, Codex, Gemini CLI, opencode and SDK lines against
// a first start on the mock, and the sidecar banner's against a real hub on the fake
// providers. Each line is taken from the banner text, run by bash in an empty folder with a
// fresh HOME and `gw` on the PATH (as after npm link), with only the arguments that make a
// tool headless appended; the turn must come back answered.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GW_BIN, cleanEnv, makeHome, type GatewayProcess } from '../../support/gateway-process.js';
import { CODING_TOOLS_DIR, missingTools } from '../coding-tools/run-coding-tool.js';
import { NO_KEYCHAIN, PERSON, runChecked, startHubRig, startLogin, type HubRig } from '../device-login/support.js';
import { GatewayJar } from '../helpers.js';

const PROMPT = 'banner turn';
/** What makes each line's tool answer one prompt and exit, appended to the printed line. */
const HEADLESS: Record<string, string> = {
  'Claude Code': ` -p "${PROMPT}" --output-format json`,
  Codex: ` exec --skip-git-repo-check --ephemeral --json "${PROMPT}"`,
  'Gemini CLI': ` -p "${PROMPT}" -o json`,
  opencode: ` run --format json "${PROMPT}"`,
};
const ROOT = path.resolve(import.meta.dirname, '../../..');

let bin: string;
const jar = new GatewayJar();

beforeAll(async () => {
  const missing = missingTools();
  if (missing.length > 0) throw new Error(`coding tools missing in ${CODING_TOOLS_DIR}: ${missing.join(', ')}`);
  // `gw` on the PATH, as `npm link` leaves it.
  bin = await mkdtemp(path.join(os.tmpdir(), 'gw-bin-'));
  await symlink(GW_BIN, path.join(bin, 'gw'));
  // The SDK lines only set variables: a tiny program of each SDK then makes one call with them.
  await writeFile(path.join(bin, 'openai-sdk-call.mjs'), `import OpenAI from ${JSON.stringify(path.join(ROOT, 'node_modules/openai/index.mjs'))};
const reply = await new OpenAI({ maxRetries: 0 }).chat.completions.create({ model: process.argv[2], messages: [{ role: 'user', content: ${JSON.stringify(PROMPT)} }] });
console.log(reply.choices[0].message.content);\n`);
  await writeFile(path.join(bin, 'anthropic-sdk-call.mjs'), `import Anthropic from ${JSON.stringify(path.join(ROOT, 'node_modules/@anthropic-ai/sdk/index.mjs'))};
const reply = await new Anthropic({ maxRetries: 0 }).messages.create({ model: process.argv[2], max_tokens: 100, messages: [{ role: 'user', content: ${JSON.stringify(PROMPT)} }] });
console.log(reply.content[0].text);\n`);
}, 30_000);

afterAll(async () => {
  await jar.stopAll();
  await rm(bin, { recursive: true, force: true });
});

/** The command of a banner line: the label's column cut off, a trailing "(…)" note dropped. */
function lines(banner: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const line of banner.split('\n')) {
    const match = /^ {2}(Claude Code|Codex|Gemini CLI|opencode|OpenAI SDKs|Anthropic SDK) +(.+?)(?: {3}\(.*\))?$/.exec(line);
    if (match) found[match[1]!] = match[2]!;
  }
  return found;
}

async function bash(command: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'gw-banner-home-'));
  const work = await mkdtemp(path.join(os.tmpdir(), 'gw-banner-work-'));
  try {
    const child = spawn('bash', ['-c', command], {
      cwd: work, stdio: ['ignore', 'pipe', 'pipe'],
      env: cleanEnv({
        HOME: home, PATH: `${bin}:${path.join(CODING_TOOLS_DIR, 'node_modules', '.bin')}:${process.env.PATH}`,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', GEMINI_CLI_TRUST_WORKSPACE: 'true',
        OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', npm_config_registry: 'http://127.0.0.1:9/',
        ...env,
      }),
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
    const code = await new Promise<number>((resolve) => child.once('close', (exit) => resolve(exit ?? -1)));
    return { code, output };
  } finally {
    await Promise.all([home, work].map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

async function runLines(banner: string, env: NodeJS.ProcessEnv, answered: RegExp): Promise<void> {
  const printed = lines(banner);
  expect(Object.keys(printed).sort()).toEqual(['Anthropic SDK', 'Claude Code', 'Codex', 'Gemini CLI', 'OpenAI SDKs', 'opencode']);
  const model = /claude --model (\S+)/.exec(printed['Claude Code']!)?.[1] ?? 'mock/echo';
  for (const [label, line] of Object.entries(printed)) {
    const command = label === 'OpenAI SDKs' ? `${line} node ${bin}/openai-sdk-call.mjs ${model}`
      : label === 'Anthropic SDK' ? `${line} node ${bin}/anthropic-sdk-call.mjs ${model}`
      : `${line}${HEADLESS[label]!}`;
    const run = await bash(command, env);
    expect(run.code, `${label}: ${command}\n${run.output}`).toBe(0);
    expect(run.output, `${label}: ${command}`).toMatch(answered);
  }
}

describe('the standalone banner (first start, mock only)', () => {
  it('each tool line and SDK line runs as printed and is answered', async () => {
    const home = await makeHome();
    const gateway: GatewayProcess = await jar.start({ home, args: ['--port', '0'], env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(gateway.stdout()).not.toContain('gw is not on your PATH');
    await runLines(gateway.stdout(), { GW_HOME: home, GW_URL: gateway.url }, /mock reply/);
  }, 240_000);
});

describe('the sidecar banner', () => {
  let rig: HubRig;
  beforeAll(async () => { rig = await startHubRig(); }, 60_000);
  afterAll(async () => { await rig?.close(); });

  it('each line runs as printed against a sidecar of a hub on the fake providers, with a model the hub serves', async () => {
    const laptop = await makeHome('gw-banner-laptop-');
    await mkdir(laptop, { recursive: true });
    const login = startLogin(rig.hub.url, laptop, NO_KEYCHAIN);
    await runChecked(['device', 'approve', await login.code, '--person', PERSON], rig.hub.home);
    expect(await login.exited).toBe(0);
    const sidecar = await rig.jar.start({ home: laptop, env: { ...NO_KEYCHAIN, PATH: `${bin}:${process.env.PATH}` } });
    // Claude Code's own default model may be one the hub does not serve: the banner names one it does.
    expect(sidecar.stdout()).toMatch(/claude --model \S+/);
    await runLines(sidecar.stdout(), { ...NO_KEYCHAIN, GW_HOME: laptop, GW_URL: sidecar.url }, new RegExp(PROMPT));
  }, 240_000);
});
