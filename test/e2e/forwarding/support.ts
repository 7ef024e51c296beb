// Shared rig for the forwarding end-to-end tests: three real fake providers
// (OpenAI, Anthropic, Gemini; optionally a second OpenAI fake standing in for
// Azure OpenAI), one `gw serve` child configured through the environment, and
// helpers to check what each side saw.
import { connect } from 'node:net';
import { expect } from 'vitest';
import { makeHome, runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { startFakeProvider, type FakeProvider, type RecordedRequest } from '../../support/fake-providers/index.js';
import { readAudit, sleep, type AuditLine } from '../helpers.js';

export const UPSTREAM_KEYS = {
  openai: 'sk-proj-fake-openai-upstream-0001',
  anthropic: 'sk-ant-api03-fake-anthropic-upstream-0002',
  gemini: 'AIzaFakeGeminiUpstreamKey0003',
  azure: 'fake-azure-upstream-key-0004',
} as const;

export type ProviderName = keyof typeof UPSTREAM_KEYS;

export interface Rig {
  gw: GatewayProcess;
  /** The bootstrap virtual key (sk-gw-…) every client uses. */
  key: string;
  openai: FakeProvider;
  anthropic: FakeProvider;
  gemini: FakeProvider;
  /** A second OpenAI fake acting as Azure OpenAI (AZURE_OPENAI_*), when asked for. */
  azure: FakeProvider | null;
  fakes(): FakeProvider[];
  close(): Promise<void>;
}

export interface RigOptions {
  eventDelayMs?: number;
  /** Configure AZURE_OPENAI_* with a fourth fake. */
  azure?: boolean;
  /** Leave OPENAI_API_KEY / OPENAI_BASE_URL out (the fake still runs). */
  withoutOpenAi?: boolean;
  /** More environment for gw serve. */
  env?: NodeJS.ProcessEnv;
  /** More `gw serve` arguments (a later --port wins over the helper's --port 0). */
  args?: string[];
  /** Runs against the fresh home before gw serve starts (e.g. `gw providers add`). */
  prepareHome?: (home: string) => Promise<void>;
}

export async function startRig(options: RigOptions = {}): Promise<Rig> {
  const eventDelayMs = options.eventDelayMs ?? 50;
  const [openai, anthropic, gemini, azure] = await Promise.all([
    startFakeProvider('openai', { apiKey: UPSTREAM_KEYS.openai, eventDelayMs }),
    startFakeProvider('anthropic', { apiKey: UPSTREAM_KEYS.anthropic, eventDelayMs }),
    startFakeProvider('gemini', { apiKey: UPSTREAM_KEYS.gemini, eventDelayMs }),
    options.azure ? startFakeProvider('openai', { apiKey: UPSTREAM_KEYS.azure, eventDelayMs }) : Promise.resolve(null),
  ]);
  const env: NodeJS.ProcessEnv = {
    ANTHROPIC_API_KEY: UPSTREAM_KEYS.anthropic,
    ANTHROPIC_BASE_URL: anthropic.url,
    GEMINI_API_KEY: UPSTREAM_KEYS.gemini,
    GOOGLE_GEMINI_BASE_URL: gemini.url,
    GW_LOG_LEVEL: 'warn',
    ...options.env,
  };
  if (!options.withoutOpenAi) Object.assign(env, { OPENAI_API_KEY: UPSTREAM_KEYS.openai, OPENAI_BASE_URL: `${openai.url}/v1` });
  if (azure) Object.assign(env, { AZURE_OPENAI_API_KEY: UPSTREAM_KEYS.azure, AZURE_OPENAI_ENDPOINT: azure.url });
  let home: string | undefined;
  if (options.prepareHome) {
    home = await makeHome('gw-fwd-');
    await options.prepareHome(home);
  }
  const gw = await startGatewayProcess({ env, args: options.args ?? [], ...(home ? { home } : {}) });
  if (!gw.bootstrapKey) throw new Error(`gw serve printed no key:\n${gw.stdout()}`);
  const fakes = () => [openai, anthropic, gemini, ...(azure ? [azure] : [])];
  return {
    gw, key: gw.bootstrapKey, openai, anthropic, gemini, azure, fakes,
    async close() {
      if (gw.child.exitCode === null && gw.child.signalCode === null) {
        const force = setTimeout(() => gw.child.kill('SIGKILL'), 5_000);
        await gw.stop('SIGTERM');
        clearTimeout(force);
      }
      await Promise.all(fakes().map((fake) => fake.close()));
    },
  };
}

/** Stops gw (flushing the trail) and checks `gw audit verify --home` exits 0. */
export async function stopAndVerify(rig: Rig): Promise<void> {
  expect(await rig.gw.stop('SIGTERM')).toBe(0);
  const result = await runGw(['audit', 'verify'], { home: rig.gw.home });
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
}

/** The provider's own credential, the fake's host, and no trace of the gw key, on an upstream request. */
export function expectUpstreamCredentials(request: RecordedRequest, provider: ProviderName, fake: FakeProvider, gwKey: string): void {
  const { headers } = request;
  const expected: Record<string, string | undefined> = {
    authorization: provider === 'openai' ? `Bearer ${UPSTREAM_KEYS.openai}` : undefined,
    'x-api-key': provider === 'anthropic' ? UPSTREAM_KEYS.anthropic : undefined,
    'x-goog-api-key': provider === 'gemini' ? UPSTREAM_KEYS.gemini : undefined,
    'api-key': provider === 'azure' ? UPSTREAM_KEYS.azure : undefined,
  };
  for (const [name, value] of Object.entries(expected)) expect(headers[name], `upstream ${name} header`).toBe(value);
  expect(headers['x-gw-vk']).toBeUndefined();
  expect(headers.host).toBe(`127.0.0.1:${fake.port}`);
  expect(JSON.stringify(headers)).not.toContain(gwKey);
  expect(JSON.stringify(request.query)).not.toContain(gwKey);
  expect(request.body).not.toContain(gwKey);
}

/** Waits for the audit record of one request id (records are appended when the response closes). */
export async function auditRecord(home: string, requestId: string, timeoutMs = 5_000): Promise<AuditLine> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readAudit(home).catch(() => [])).find((line) => line.request_id === requestId);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no audit record for ${requestId}`);
    await sleep(50);
  }
}

/** Waits for the latest request record matching `match`. */
export async function auditRecordWhere(home: string, match: (line: AuditLine) => boolean, timeoutMs = 5_000): Promise<AuditLine> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readAudit(home).catch(() => [])).filter((line) => line.kind === 'request').findLast(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error('no matching audit record');
    await sleep(50);
  }
}

/** A fetch that remembers each request body as sent, for byte-for-byte comparison with what the provider got. */
export function recordingFetch(): { fetch: typeof fetch; bodies: string[]; urls: string[]; headers: Headers[] } {
  const bodies: string[] = [];
  const urls: string[] = [];
  const headers: Headers[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    urls.push(typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url);
    headers.push(new Headers(init?.headers));
    const body = init?.body;
    bodies.push(typeof body === 'string' ? body : body instanceof Uint8Array ? Buffer.from(body).toString('utf8') : '');
    return fetch(input, init);
  };
  return { fetch: wrapped, bodies, urls, headers };
}

/** The body the client sent with only the top-level model string replaced, as gw must forward it. */
export function withModel(clientBody: string, from: string, to: string): string {
  const needle = `"model":${JSON.stringify(from)}`;
  expect(clientBody).toContain(needle);
  return clientBody.replace(needle, `"model":${JSON.stringify(to)}`);
}

/**
 * A port nothing listens on. Chosen below the ephemeral range (32768–60999 on Linux)
 * so that no listen(0) in a parallel test file can be handed the same port later,
 * and checked to refuse connections now.
 */
export async function closedPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => { socket.destroy(); resolve(false); });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });
    if (refused) return port;
  }
}

export function last(fake: FakeProvider): RecordedRequest {
  const request = fake.requests.at(-1);
  if (!request) throw new Error(`${fake.kind} fake got no request`);
  return request;
}

/** Raw POST with the gw key, for wire-level assertions. */
export function post(rig: Rig, path: string, body: unknown, headers: Record<string, string> = {}, init: RequestInit = {}): Promise<Response> {
  return fetch(`${rig.gw.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${rig.key}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

/** Reads a streamed body, noting when each piece arrived. */
export async function readTimed(response: Response): Promise<{ text: string; pieces: Array<{ at: number; text: string }> }> {
  const pieces: Array<{ at: number; text: string }> = [];
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    const piece = decoder.decode(chunk, { stream: true });
    pieces.push({ at: Date.now(), text: piece });
    text += piece;
  }
  return { text, pieces };
}

/** `data:` payloads of an SSE text, parsed where they are JSON. */
export function sseData(text: string): unknown[] {
  return text.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => {
    const data = line.slice(5).trim();
    try { return JSON.parse(data) as unknown; } catch { return data; }
  });
}
