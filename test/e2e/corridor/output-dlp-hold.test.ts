// Output DLP holds back on every stream (issue 26): a provider that streams a secret one
// character per event, each event its own write, through a real `gw serve`, for every
// client dialect × provider dialect. A raw client reads the bytes: the text it was given
// never holds more than 4 characters in a row of the secret, the stream ends with gw's
// error event naming the rule, and what came before the secret did arrive. Then the parts
// of an answer besides a success body: provider error bodies (4xx and 5xx, same format
// and translated) and provider response headers, blocked or redacted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBedrockEventStream } from '../../../src/providers/bedrock/event-stream.js';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { readFile } from 'node:fs/promises';
import { listFiles, readAudit, sleep, waitForState } from '../helpers.js';
import { FAIL_503_TRIGGER, FAIL_TRIGGER, HEADER_TRIGGER, LEAK_TRIGGER, startDripProvider, type DripProvider } from './output-dlp-drip-provider.js';

// Built in pieces so no scanner of this repository takes it for a real token.
const SECRET = ['gh', 'p_', 'Zq8RkT2mWv5XnB7cYp3LdF9sHj4GtK6wQa1E'].join('');
const AWS_KEY = ['AK', 'IA', 'QYLPMN5HHHFPZAM2'].join('');
const BEFORE = 'here it is: ';
const PLAIN = 'a plain answer with nothing to hide, long enough to cross the hold window of the scanner, '.repeat(3);

type Client = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'google-genai' | 'bedrock';
const PROVIDER_MODELS = { openai: 'openai/gpt-4o', anthropic: 'anthropic/claude-sonnet-4-5', gemini: 'gemini/gemini-2.5-flash', bedrock: 'bedrock/anthropic.claude-3-5-haiku' } as const;
type Provider = keyof typeof PROVIDER_MODELS;

/** The request each client dialect sends, streamed or not. */
function requestOf(client: Client, model: string, text: string, stream = true): { path: string; body: unknown } {
  switch (client) {
    case 'openai-chat': return { path: '/v1/chat/completions', body: { model, stream, messages: [{ role: 'user', content: text }] } };
    case 'openai-responses': return { path: '/v1/responses', body: { model, stream, input: text } };
    case 'anthropic-messages': return { path: '/v1/messages', body: { model, stream, max_tokens: 64, messages: [{ role: 'user', content: text }] } };
    case 'google-genai': return { path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`, body: { contents: [{ role: 'user', parts: [{ text }] }] } };
    case 'bedrock': return { path: `/litellm/bedrock/model/${encodeURIComponent(model)}/${stream ? 'converse-stream' : 'converse'}`, body: { messages: [{ role: 'user', content: [{ text }] }] } };
  }
}

let gw: GatewayProcess;
let drip: DripProvider;
const keys = {} as Record<'block' | 'redact', string>;

async function gwCommand(...args: string[]): Promise<string> {
  const result = await runGw(args, { home: gw.home });
  expect(result.code, result.stderr).toBe(0);
  return `${result.stdout}${result.stderr}`;
}

beforeAll(async () => {
  drip = await startDripProvider({ leak: `${BEFORE}${SECRET} and that was all`, plain: PLAIN }, SECRET, AWS_KEY);
  gw = await startGatewayProcess({
    env: {
      OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${drip.url}/v1`, ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: drip.url,
      GEMINI_API_KEY: 'upstream-gemini', GOOGLE_GEMINI_BASE_URL: drip.url, AWS_BEARER_TOKEN_BEDROCK: 'upstream-bedrock', BEDROCK_BASE_URL: drip.url,
      GW_LOG_LEVEL: 'warn',
    },
  });
  for (const name of ['block', 'redact'] as const) {
    const out = await gwCommand('keys', 'create', '--team', 'local', '--name', name);
    keys[name] = /sk-gw-\w+/.exec(out)![0];
    await gwCommand('dlp', 'output', 'on', '--scope', `key:${/vk_\w+/.exec(out)![0]}`);
    if (name === 'redact') {
      const id = /vk_\w+/.exec(out)![0];
      await gwCommand('dlp', 'set', 'github_token', 'redact', '--scope', `key:${id}`);
      await gwCommand('dlp', 'set', 'aws_access_key', 'redact', '--scope', `key:${id}`);
    }
  }
  await waitForState(gw);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await drip?.close();
});

interface Received { status: number; headers: Headers; raw: string; text: string }

/** Sends the call and reads the raw bytes as they come; `text` is every string the client's events carried, in order. */
async function send(client: Client, model: string, text: string, key: string, stream = true): Promise<Received> {
  const { path, body } = requestOf(client, model, text, stream);
  const response = await fetch(`${gw.url}${path}`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-api-key': key, 'x-goog-api-key': key },
  });
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
  } catch { /* a cut transfer: what arrived is what counts */ }
  const bytes = Buffer.concat(chunks);
  const binary = (response.headers.get('content-type') ?? '').includes('eventstream');
  return { status: response.status, headers: response.headers, raw: bytes.toString(binary ? 'latin1' : 'utf8'), text: binary ? await framesText(bytes) : sseText(bytes.toString('utf8')) };
}

/** Where each dialect's events carry text for the reader (an error event's `message` included). */
const TEXT_KEYS = new Set(['content', 'text', 'delta', 'message', 'partial_json', 'thinking', 'arguments', 'reasoning_content']);

function strings(node: unknown, out: string[], key = 'text'): void {
  if (typeof node === 'string') { if (TEXT_KEYS.has(key)) out.push(node); }
  else if (Array.isArray(node)) for (const item of node) strings(item, out, key);
  else if (typeof node === 'object' && node !== null) for (const [name, value] of Object.entries(node)) strings(value, out, name);
}

function sseText(raw: string): string {
  const out: string[] = [];
  for (const line of raw.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    try { strings(JSON.parse(line.slice(5)), out); } catch { /* [DONE] */ }
  }
  return out.join('');
}

async function framesText(bytes: Buffer): Promise<string> {
  const out: string[] = [];
  async function* once() { yield new Uint8Array(bytes); }
  try {
    for await (const event of decodeBedrockEventStream(once())) {
      try { strings(JSON.parse(event.data), out); } catch { out.push(event.data); }
    }
  } catch { /* a cut frame */ }
  return out.join('');
}

/** The longest run of the secret's characters found in `text`. */
function longestSecretRun(text: string): number {
  let longest = 0;
  for (let start = 0; start < SECRET.length; start += 1) {
    for (let end = start + longest + 1; end <= SECRET.length && text.includes(SECRET.slice(start, end)); end += 1) longest = end - start;
  }
  return longest;
}

const CLIENTS: Client[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'google-genai', 'bedrock'];
const PAIRS = CLIENTS.flatMap((client) => (Object.keys(PROVIDER_MODELS) as Provider[]).map((provider) => [client, provider] as const));

describe('a secret streamed one character per event never reaches the client, whatever the dialects', () => {
  it.each(PAIRS)('%s client, %s provider', async (client, provider) => {
    const received = await send(client, PROVIDER_MODELS[provider], LEAK_TRIGGER, keys.block);
    expect(received.status, received.raw).toBe(200);
    expect(longestSecretRun(received.text), received.text).toBeLessThanOrEqual(4);
    expect(longestSecretRun(received.raw)).toBeLessThanOrEqual(4);
    // gw's own error event names the rule, and the text before the secret was not held back forever.
    expect(received.raw).toContain('github_token');
    expect(received.text).toContain(BEFORE.trim());
    expect(received.text).not.toContain('that was all');
  }, 30_000);

  it('the record of a blocked translated stream names the rule and the outcome, never the secret', async () => {
    await send('google-genai', PROVIDER_MODELS.openai, LEAK_TRIGGER, keys.block);
    await sleep(300);
    const record = (await readAudit(gw.home)).filter((line) => line.kind === 'request').at(-1)!;
    expect(record.dlp).toMatchObject({ 'output.github_token': 1 });
    expect(record.outcome).toContain('GW_ERR_DLP_BLOCKED');
  }, 30_000);

  it.each(PAIRS)('%s client, %s provider: a clean stream arrives whole', async (client, provider) => {
    const received = await send(client, PROVIDER_MODELS[provider], 'hello', keys.block);
    expect(received.status, received.raw).toBe(200);
    expect(received.text).toContain(PLAIN);
    expect(received.raw).not.toContain('GW_ERR');
  }, 30_000);
});

const SAME_FORMAT: Array<[Client, Provider]> = [['openai-chat', 'openai'], ['openai-responses', 'openai'], ['anthropic-messages', 'anthropic'], ['google-genai', 'gemini'], ['bedrock', 'bedrock']];
const TRANSLATED: Array<[Client, Provider]> = [['openai-chat', 'anthropic'], ['anthropic-messages', 'openai'], ['google-genai', 'bedrock'], ['bedrock', 'gemini']];

describe('a provider error body carrying a secret', () => {
  const cases = [...SAME_FORMAT, ...TRANSLATED].flatMap(([client, provider]) => [400, 503].flatMap((status) => [true, false].map((stream) => [client, provider, status, stream] as const)));
  it.each(cases)('%s client, %s provider, %i, stream %s: blocked with gw\'s error naming the rule', async (client, provider, status, stream) => {
    const received = await send(client, PROVIDER_MODELS[provider], status === 503 ? FAIL_503_TRIGGER : FAIL_TRIGGER, keys.block, stream);
    expect(received.raw).not.toContain(SECRET);
    expect(received.status, received.raw).toBe(403);
    expect(received.raw).toContain('github_token');
  }, 30_000);

  it.each([...SAME_FORMAT, ...TRANSLATED])('%s client, %s provider: redacted, the provider\'s status kept', async (client, provider) => {
    const received = await send(client, PROVIDER_MODELS[provider], FAIL_TRIGGER, keys.redact, false);
    expect(received.raw).not.toContain(SECRET);
    expect(received.status, received.raw).toBe(400);
    expect(received.raw).toContain('[REDACTED:github_token]');
    expect(received.raw).toContain('was rejected');
  }, 30_000);
});

describe('a provider response header carrying a secret', () => {
  it.each(SAME_FORMAT.flatMap(([client, provider]) => [true, false].map((stream) => [client, provider, stream] as const)))('%s client, %s provider, stream %s', async (client, provider, stream) => {
    const blocked = await send(client, PROVIDER_MODELS[provider], `${HEADER_TRIGGER} hello`, keys.block, stream);
    expect(blocked.status, blocked.raw).toBe(200);
    expect(blocked.headers.get('x-upstream-debug')).toBeNull();
    expect([...blocked.headers.values()].join('\n')).not.toContain(AWS_KEY);
    const redacted = await send(client, PROVIDER_MODELS[provider], `${HEADER_TRIGGER} hello`, keys.redact, stream);
    expect(redacted.status, redacted.raw).toBe(200);
    expect(redacted.headers.get('x-upstream-debug')).toBe('key=[REDACTED:aws_access_key]');
  }, 30_000);

  it('nothing gw wrote (log, audit, its home) holds a secret it blocked or redacted', async () => {
    await sleep(1_200);
    const written = [gw.stdout(), gw.stderr()];
    for (const file of await listFiles(gw.home)) written.push(await readFile(file, 'latin1'));
    const everything = written.join('\n');
    expect(everything).toContain('output.github_token');
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(AWS_KEY);
  }, 30_000);

  it.each(TRANSLATED)('%s client, %s provider: the headers a translated refusal carries are scanned too', async (client, provider) => {
    const blocked = await send(client, PROVIDER_MODELS[provider], `${FAIL_TRIGGER} ${HEADER_TRIGGER}`, keys.redact, false);
    expect(blocked.status, blocked.raw).toBe(400);
    expect([...blocked.headers.values()].join('\n')).not.toContain(AWS_KEY);
    expect(blocked.raw).not.toContain(SECRET);
  }, 30_000);

  it('with output DLP off, headers and error bodies pass as the provider sent them', async () => {
    const out = await gwCommand('keys', 'create', '--team', 'local', '--name', 'plain');
    await waitForState(gw);
    const key = /sk-gw-\w+/.exec(out)![0];
    const headers = await send('openai-chat', PROVIDER_MODELS.openai, `${HEADER_TRIGGER} hello`, key, false);
    expect(headers.headers.get('x-upstream-debug')).toBe(`key=${AWS_KEY}`);
    const error = await send('openai-chat', PROVIDER_MODELS.openai, FAIL_TRIGGER, key, false);
    expect(error.status).toBe(400);
    expect(error.raw).toContain(SECRET);
  }, 30_000);
});
