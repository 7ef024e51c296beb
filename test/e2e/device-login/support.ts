// Shared pieces of the device-login end-to-end tests: a hub process with fake
// providers and a person, `gw login` as a child process, and secret searches.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { deriveLiveKey } from '../../../src/state/live-keys.js';
import { startFakeProvider, type FakeProvider } from '../../support/fake-providers/index.js';
import { GW_BIN, cleanEnv, makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { GatewayJar, waitUntil } from '../helpers.js';

export const PROVIDER_KEYS = { openai: 'sk-proj-hub-openai-key-0001', anthropic: 'sk-ant-api03-hub-anthropic-key-0002', gemini: 'AIzaHubGeminiKey0003' } as const;
export const PERSON = 'alice@example.com';
export const TEAM = 'eng';
/** No D-Bus session: the keychain is unavailable, as on CI and headless Linux. */
export const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/gw-test-bus' };

export interface HubRig {
  hub: GatewayProcess;
  jar: GatewayJar;
  fakes: { openai: FakeProvider; anthropic: FakeProvider; gemini: FakeProvider };
  hubEnv: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export async function startHubRig(options: { env?: NodeJS.ProcessEnv; prepare?: (home: string) => Promise<void> } = {}): Promise<HubRig> {
  const [openai, anthropic, gemini] = await Promise.all([
    startFakeProvider('openai', { apiKey: PROVIDER_KEYS.openai, eventDelayMs: 10 }),
    startFakeProvider('anthropic', { apiKey: PROVIDER_KEYS.anthropic, eventDelayMs: 10 }),
    startFakeProvider('gemini', { apiKey: PROVIDER_KEYS.gemini, eventDelayMs: 10 }),
  ]);
  const home = await makeHome('gw-hub-');
  await runChecked(['teams', 'create', TEAM], home);
  await runChecked(['people', 'add', PERSON, '--team', TEAM], home);
  await options.prepare?.(home);
  const hubEnv: NodeJS.ProcessEnv = {
    OPENAI_API_KEY: PROVIDER_KEYS.openai, OPENAI_BASE_URL: `${openai.url}/v1`,
    ANTHROPIC_API_KEY: PROVIDER_KEYS.anthropic, ANTHROPIC_BASE_URL: anthropic.url,
    GEMINI_API_KEY: PROVIDER_KEYS.gemini, GOOGLE_GEMINI_BASE_URL: gemini.url,
    GW_LOG_LEVEL: 'warn', ...options.env,
  };
  const jar = new GatewayJar();
  const hub = await jar.start({ home, env: hubEnv, args: ['--standalone'] });
  return {
    hub, jar, fakes: { openai, anthropic, gemini }, hubEnv,
    async close() {
      await jar.stopAll();
      await Promise.all([openai.close(), anthropic.close(), gemini.close()]);
    },
  };
}

export async function runChecked(args: string[], home: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const result = await runGw(args, { home, env });
  if (result.code !== 0) throw new Error(`gw ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

export interface LoginChild {
  child: ChildProcess;
  stderr(): string;
  /** Resolves with the XXXX-XXXX code once it is printed. */
  code: Promise<string>;
  exited: Promise<number>;
}

/** `gw login --hub URL --no-browser` as a person runs it, in its own home. */
export function startLogin(hubUrl: string, home: string, env: NodeJS.ProcessEnv = NO_KEYCHAIN): LoginChild {
  const child = spawn(process.execPath, [GW_BIN, 'login', '--hub', hubUrl, '--no-browser', '--home', home], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  child.stdout.resume();
  const exited = new Promise<number>((resolve) => child.once('close', (code) => resolve(code ?? -1)));
  const code = waitUntil(() => /code: [B-Z]{4}-[B-Z]{4}/.test(stderr), { timeoutMs: 15_000, what: 'the login code' })
    .then(() => /code: ([B-Z]{4}-[B-Z]{4})/.exec(stderr)![1]!);
  // A caller that never reads the code (a login that fails first, a plain-text login) must not leave a rejection
  // 15 s later for whatever file runs next: the catch marks it handled, and a caller awaiting `code` still sees it.
  code.catch(() => undefined);
  return { child, stderr: () => stderr, code, exited };
}

/** Every live key the hub ever derived for the team (current and rotated), from hub.key and state.json. */
export async function liveKeysOf(hubHome: string): Promise<string[]> {
  const secret = await readFile(path.join(hubHome, 'hub.key'));
  const state = JSON.parse(await readFile(path.join(hubHome, 'state.json'), 'utf8')) as { live_keys: Array<{ team: string; salt: string }> };
  return state.live_keys.map((live) => deriveLiveKey(secret, live.team, live.salt));
}

/** Everything a fake provider was sent, headers and bodies, as one string to search. */
export function everythingSent(fakes: FakeProvider[]): string {
  return fakes.flatMap((fake) => fake.requests.map((request) => `${JSON.stringify(request.headers)}\n${request.body}\n${request.path}`)).join('\n');
}
