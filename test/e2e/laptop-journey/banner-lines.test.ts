// Every line gw prints or the README shows runs as written (issue 14). The banner lines
// of a standalone gateway, of a hub (a later start: keys from gw token) and of a sidecar
// after gw login are read off their stdout and run whole with bash, as pasted, in an empty
// folder with a fresh HOME: the coding tools (installed by scripts/ensure-test-deps.sh) each
// complete a turn with a tool call on the fake providers, and the SDK lines' exports serve
// an official SDK program. `gw` is on the PATH as `npm link` puts it there (a link to
// bin/gw.js). The bash blocks of docs/getting-started.md run the same way against a first start
// on the mock; the only change is the port (8080 may be taken here). test/docs/doc-blocks.test.ts
// runs the docs' other blocks, test/cli/readme-commands.test.ts checks their gw commands exist.
// A tool is run headless: a wrapper of the same name on the PATH adds the tool's
// non-interactive arguments (a prompt and JSON output) after the line's own.
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GW_BIN, cleanEnv, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import type { FakeProvider } from '../../support/fake-providers/index.js';
import { startRig, type Rig } from '../forwarding/support.js';
import { NO_KEYCHAIN, PERSON, runChecked, startHubRig, startLogin, type HubRig } from '../device-login/support.js';
import { CODING_TOOLS_DIR, missingTools } from '../coding-tools/run-coding-tool.js';

const REPO = path.resolve(import.meta.dirname, '../../..');
const PROMPT = 'banner line turn';
const TOOLS = ['claude', 'codex', 'gemini', 'opencode'] as const;
/**
 * What each tool needs after the line's own arguments to take one prompt and answer in JSON.
 * The prompt comes from GW_TEST_PROMPT, one per line, so lines can run at once and each
 * finds its own requests at the fake providers.
 */
const HEADLESS: Record<(typeof TOOLS)[number], string> = {
  claude: '"$@" -p "$GW_TEST_PROMPT" --output-format json',
  codex: '"$@" exec --skip-git-repo-check --ephemeral --json "$GW_TEST_PROMPT"',
  gemini: '"$@" -p "$GW_TEST_PROMPT" -o json',
  opencode: 'run "$@" --format json "$GW_TEST_PROMPT"',
};

let bin: string;
beforeAll(async () => {
  const missing = missingTools();
  if (missing.length > 0) throw new Error(`coding tools missing in ${CODING_TOOLS_DIR}: ${missing.join(', ')}; run bash scripts/ensure-test-deps.sh`);
  bin = await mkdtemp(path.join(os.tmpdir(), 'gw-banner-bin-'));
  await symlink(GW_BIN, path.join(bin, 'gw'));
  for (const tool of TOOLS) {
    const wrapper = path.join(bin, tool);
    await writeFile(wrapper, `#!/bin/sh\nexec ${JSON.stringify(path.join(CODING_TOOLS_DIR, 'node_modules', '.bin', tool))} ${HEADLESS[tool]}\n`);
    await chmod(wrapper, 0o755);
  }
});
afterAll(async () => { if (bin) await rm(bin, { recursive: true, force: true }); });

interface Run { code: number; stdout: string; stderr: string }

/** bash -c SCRIPT in an empty folder with a fresh HOME, gw and the tools on the PATH, nothing else of ours. */
async function bash(script: string, env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<Run> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'gw-banner-home-'));
  const work = cwd ?? await mkdtemp(path.join(os.tmpdir(), 'gw-banner-work-'));
  try {
    const child = spawn('bash', ['-c', script], {
      cwd: work, stdio: ['ignore', 'pipe', 'pipe'],
      env: cleanEnv({
        HOME: home, PATH: `${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin`,
        // What a user keeps quiet anyway (updates, telemetry, the folder-trust prompt); nothing here points a tool at gw.
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', GEMINI_CLI_TRUST_WORKSPACE: 'true',
        OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', npm_config_registry: 'http://127.0.0.1:9/',
        ...NO_KEYCHAIN, ...env,
      }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 100_000);
    const code = await new Promise<number>((resolve) => child.once('close', (exit) => resolve(exit ?? -1)));
    clearTimeout(timer);
    return { code, stdout, stderr };
  } finally {
    await rm(home, { recursive: true, force: true });
    if (!cwd) await rm(work, { recursive: true, force: true });
  }
}

/** The banner's tool lines: label → the shell line after it. */
function bannerLines(stdout: string): Map<string, string> {
  const lines = new Map<string, string>();
  for (const match of stdout.matchAll(/^ {2}(Claude Code|Codex|Gemini CLI|opencode|OpenAI SDKs|Anthropic SDK|Google GenAI|or any tool) +(.+)$/gm)) lines.set(match[1]!, match[2]!);
  return lines;
}

/** A program using one official SDK with nothing but the environment the export line set, printing the reply's text. */
function sdkProgram(label: string, model: string): string {
  const prompt = `${PROMPT} ${label}`;
  const programs: Record<string, string> = {
    'OpenAI SDKs': `import OpenAI from 'openai'; const r = await new OpenAI({ maxRetries: 0 }).chat.completions.create({ model: '${model}', messages: [{ role: 'user', content: '${prompt}' }] }); console.log(r.choices[0].message.content);`,
    'Anthropic SDK': `import Anthropic from '@anthropic-ai/sdk'; const r = await new Anthropic({ maxRetries: 0 }).messages.create({ model: '${model}', max_tokens: 64, messages: [{ role: 'user', content: '${prompt}' }] }); console.log(r.content[0].text);`,
    'Google GenAI': `import { GoogleGenAI } from '@google/genai'; const r = await new GoogleGenAI({}).models.generateContent({ model: '${model}', contents: '${prompt}' }); console.log(r.text);`,
  };
  // Run from the repository, where the SDKs are installed.
  return `node --input-type=module -e ${JSON.stringify(programs[label])}`;
}

/** Runs one banner line as pasted; a tool line must complete a turn with a tool call on one of `fakes`. */
async function runLine(label: string, line: string, model: string, fakes: FakeProvider[], where: string): Promise<void> {
  const prompt = `${PROMPT} ${label} ${where}`;
  if (SDK_LABELS.includes(label)) {
    const run = await bash(`${line}\n${sdkProgram(label, model)}`, {}, REPO);
    expect(run.code, `${label}: ${line}\n${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain(`${PROMPT} ${label}`);
    return;
  }
  const run = await bash(line, { GW_TEST_PROMPT: prompt });
  expect(run.code, `${label}: ${line}\n${run.stdout}\n${run.stderr}`).toBe(0);
  expect(run.stdout).toContain(prompt);
  // The fake answered the first request with a tool call; the tool ran it and sent its result back.
  const sent = fakes.flatMap((fake) => fake.requests).filter((request) => request.body.includes(prompt));
  expect(sent.length, `${label}: requests that reached a provider`).toBeGreaterThanOrEqual(2);
  expect(sent.some((request) => /tool_result|function_call_output|functionResponse|"role":"tool"/.test(JSON.stringify(request.json))), `${label}: a tool result went back`).toBe(true);
}

const SDK_LABELS = ['OpenAI SDKs', 'Anthropic SDK', 'Google GenAI'];
const LABELS = ['Claude Code', 'Codex', 'Gemini CLI', 'opencode', ...SDK_LABELS, 'or any tool'];

function modelOf(lines: Map<string, string>): string {
  const model = / --model (\S+)/.exec(lines.get('Claude Code') ?? '')?.[1];
  expect(model, 'the Claude Code line names a model').toBeDefined();
  return model!;
}

describe('a standalone gateway\'s banner (first start, fake providers behind it)', () => {
  let rig: Rig;
  let lines: Map<string, string>;
  beforeAll(async () => {
    rig = await startRig({ eventDelayMs: 5 });
    lines = bannerLines(rig.gw.stdout());
  }, 60_000);
  afterAll(async () => { await rig?.close(); });

  it('names a line for every tool and SDK, a real model, and the first start\'s key', () => {
    expect([...lines.keys()]).toEqual(LABELS);
    expect(modelOf(lines)).toBe('anthropic/claude-sonnet-4-5');
    expect(lines.get('Claude Code')).toContain(`ANTHROPIC_AUTH_TOKEN=${rig.key} `);
    // Not in the default home: the gw run lines say which; the home leads them to the port (no GW_URL).
    expect(lines.get('or any tool')).toMatch(new RegExp(`^gw run --home ${rig.gw.home} claude `));
  });

  it('its curl line answers', async () => {
    const curl = /^ {2}(curl .*\\)\n {4}(.*)$/m.exec(rig.gw.stdout());
    expect(curl).not.toBeNull();
    const run = await bash(`${curl![1]}\n${curl![2]}`);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ object: 'chat.completion', model: 'mock/echo' });
  });

  it.concurrent.each(LABELS)('%s', async (label) => {
    await runLine(label, lines.get(label)!, modelOf(lines), rig.fakes(), 'standalone');
  }, 120_000);
});

describe('a hub\'s banner on a later start, and a sidecar\'s after gw login', () => {
  let rig: HubRig;
  let sidecar: GatewayProcess;
  beforeAll(async () => {
    rig = await startHubRig();
    const laptop = await mkdtemp(path.join(os.tmpdir(), 'gw-banner-laptop-'));
    const login = startLogin(rig.hub.url, laptop);
    await runChecked(['device', 'approve', await login.code, '--person', PERSON], rig.hub.home);
    expect(await login.exited).toBe(0);
    sidecar = await rig.jar.start({ home: laptop, env: { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'warn' } });
  }, 60_000);
  afterAll(async () => { await rig?.close(); });

  it('the hub names its login URL, and its lines take a key from gw token (no key is shown after the first start)', async () => {
    const stdout = rig.hub.stdout();
    expect(stdout).toContain(`gw login --hub ${rig.hub.url}`);
    const lines = bannerLines(stdout);
    expect([...lines.keys()]).toEqual(LABELS);
    const token = `$(gw token --home ${rig.hub.home})`;
    expect(lines.get('Claude Code')).toContain(`ANTHROPIC_AUTH_TOKEN=${token} `);
    expect(lines.get('Codex')).toMatch(new RegExp(`^GW_API_KEY=${token.replace(/[$()]/g, '\\$&')} codex `));
    await Promise.all(['Codex', 'OpenAI SDKs'].map((label) => runLine(label, lines.get(label)!, modelOf(lines), Object.values(rig.fakes), 'hub')));
  }, 120_000);

  it('the sidecar\'s lines name a model its hub serves and take any key', () => {
    const lines = bannerLines(sidecar.stdout());
    expect([...lines.keys()]).toEqual(LABELS);
    expect(modelOf(lines)).toBe('anthropic/claude-sonnet-4-5');
    expect(lines.get('Claude Code')).toContain('ANTHROPIC_AUTH_TOKEN=gw-sidecar ');
  });

  it.concurrent.each(LABELS)('sidecar: %s', async (label) => {
    const lines = bannerLines(sidecar.stdout());
    await runLine(label, lines.get(label)!, modelOf(lines), Object.values(rig.fakes), 'sidecar');
  }, 120_000);

  it('sidecar: gw run asks for a model the hub serves when the tool names none (its own default may route nowhere)', () => {
    const own = rig.fakes.anthropic.requests.filter((request) => request.body.includes(`${PROMPT} or any tool sidecar`));
    expect(own.length).toBeGreaterThanOrEqual(2);
    for (const request of own) expect(request.json).toMatchObject({ model: 'claude-sonnet-4-5' });
  });
});

/** docs/getting-started.md's fenced blocks of one language, continuation lines joined, comments kept (bash ignores them). */
async function readmeBlocks(language: string): Promise<string[][]> {
  const readme = await readFile(path.join(REPO, 'docs', 'getting-started.md'), 'utf8');
  return [...readme.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))]
    .map((block) => block[1]!.replace(/\\\n\s*/g, '').split('\n').filter((line) => line.trim() !== ''));
}

describe('the README\'s getting started (docs/getting-started.md)', () => {
  it('puts gw on the PATH with npm link, which links package.json\'s bin', async () => {
    const [setup] = await readmeBlocks('bash');
    expect(setup![0]).toMatch(/^npm install && npm link && gw serve /);
    const manifest = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(manifest.bin).toEqual({ gw: 'bin/gw.js' });
  });

  describe('its lines for another terminal, against a gateway started as its first line does', () => {
    // As `npm install && npm link && gw serve` starts it: no provider keys, so mock/<anything> answers.
    let gateway: GatewayProcess;
    beforeAll(async () => { gateway = await startGatewayProcess({ env: { PATH: `${bin}:${process.env.PATH}` } }); }, 60_000);

    it('its banner names mock/echo, and says nothing of the PATH when gw is on it', () => {
      const lines = bannerLines(gateway.stdout());
      expect([...lines.keys()]).toEqual(LABELS);
      expect(modelOf(lines)).toBe('mock/echo');
      expect(gateway.stdout()).not.toContain('gw is not on your PATH');
    });
    afterAll(async () => { await gateway?.stop(); });

    it('each runs', async () => {
      const [, terminal] = await readmeBlocks('bash');
      expect(terminal!.length).toBeGreaterThanOrEqual(4);
      // The gateway listens where the test could bind; GW_URL and GW_HOME tell gw token and gw run the same.
      const env = { GW_URL: gateway.url, GW_HOME: gateway.home };
      for (const written of terminal!) {
        const line = written.replaceAll('http://127.0.0.1:8080', gateway.url);
        const isExport = line.startsWith('export OPENAI_BASE_URL');
        const run = isExport ? await bash(`${line}\n${sdkProgram('OpenAI SDKs', 'mock/echo')}`, env, REPO) : await bash(line, { ...env, GW_TEST_PROMPT: PROMPT });
        expect(run.code, `${written}\n${run.stdout}\n${run.stderr}`).toBe(0);
        // The mock echoes the last user text (Claude Code puts a reminder before it).
        expect(run.stdout, written).toMatch(line.startsWith('curl') ? /"mock reply: hello"/ : new RegExp(`mock reply: [\\s\\S]*${PROMPT}`));
      }
    }, 180_000);
  });
});
