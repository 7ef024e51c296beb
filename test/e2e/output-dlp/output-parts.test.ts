// Output DLP on what the client will read, part by part (issue 36, deliverable 2), through a
// real `gw serve` and a loopback provider speaking each dialect (cell-provider.ts). The
// issue's three findings first, then the matrix's real path: every provider dialect × every
// cell it can express × {same-format, translated}. A raw client reads the bytes: no event it
// was given carries three characters of the secret in a row, and gw's error event names the
// rule. A clean same-format stream arrives byte for byte as the provider sent it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodecName } from '../../../src/formats/codec-registry.js';
import { decodeBedrockEventStream } from '../../../src/providers/bedrock/event-stream.js';
import { runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { cellEvents, cleanEvents, OUTPUT_CELLS, SECRET, type OutputCell } from '../../support/output-dlp-cells.js';
import { waitForState } from '../helpers.js';
import { CLEAN_MARKER, cellMarker, startCellProvider, wireBytes, type CellProvider } from './cell-provider.js';

type Client = Exclude<CodecName, 'openai-completions'>;
/** The model each provider dialect is reached by. */
const MODELS: Record<Client, string> = {
  'openai-chat': 'openai/gpt-4o', 'openai-responses': 'openai/gpt-4o', 'anthropic-messages': 'anthropic/claude-sonnet-4-5',
  'google-genai': 'gemini/gemini-2.5-flash', 'bedrock-converse': 'bedrock/anthropic.claude-3-5-haiku',
};
/** The client dialect of each provider dialect's translated rows. */
const TRANSLATED_CLIENT: Partial<Record<Client, Client>> = {
  'openai-chat': 'anthropic-messages', 'anthropic-messages': 'openai-responses', 'google-genai': 'openai-chat', 'bedrock-converse': 'openai-chat',
};

function requestOf(client: Client, model: string, text: string): { path: string; body: unknown } {
  switch (client) {
    case 'openai-chat': return { path: '/v1/chat/completions', body: { model, stream: true, messages: [{ role: 'user', content: text }] } };
    case 'openai-responses': return { path: '/v1/responses', body: { model, stream: true, input: text } };
    case 'anthropic-messages': return { path: '/v1/messages', body: { model, stream: true, max_tokens: 64, messages: [{ role: 'user', content: text }] } };
    case 'google-genai': return { path: `/v1beta/models/${model}:streamGenerateContent?alt=sse`, body: { contents: [{ role: 'user', parts: [{ text }] }] } };
    case 'bedrock-converse': return { path: `/litellm/bedrock/model/${encodeURIComponent(model)}/converse-stream`, body: { messages: [{ role: 'user', content: [{ text }] }] } };
  }
}

let gw: GatewayProcess;
let provider: CellProvider;
let key = '';

beforeAll(async () => {
  provider = await startCellProvider();
  gw = await startGatewayProcess({
    env: {
      OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${provider.url}/v1`, ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: provider.url,
      GEMINI_API_KEY: 'upstream-gemini', GOOGLE_GEMINI_BASE_URL: provider.url, AWS_BEARER_TOKEN_BEDROCK: 'upstream-bedrock', BEDROCK_BASE_URL: provider.url,
      GW_LOG_LEVEL: 'warn',
    },
  });
  const created = await runGw(['keys', 'create', '--team', 'local', '--name', 'output-dlp'], { home: gw.home });
  expect(created.code, created.stderr).toBe(0);
  const printed = `${created.stdout}${created.stderr}`;
  key = /sk-gw-\w+/.exec(printed)?.[0] ?? '';
  const id = /vk_\w+/.exec(printed)?.[0] ?? '';
  const on = await runGw(['dlp', 'output', 'on', '--scope', `key:${id}`], { home: gw.home });
  expect(on.code, on.stderr).toBe(0);
  await waitForState(gw);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await provider?.close();
});

interface Received { status: number; raw: Buffer; events: string[] }

/** Every string an event shows the client (keys too), JSON escapes undone as the client's JSON.parse would. */
function shown(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    out.push(value.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))));
    if (value.startsWith('{')) { try { shown(JSON.parse(value), out); } catch { /* a fragment */ } }
  } else if (Array.isArray(value)) for (const item of value) shown(item, out);
  else if (typeof value === 'object' && value !== null) for (const [name, item] of Object.entries(value)) { out.push(name); shown(item, out); }
  return out;
}

function shownOf(data: string): string {
  try { return shown(JSON.parse(data)).join(''); } catch { return data; }
}

async function send(client: Client, provider: Client, text: string): Promise<Received> {
  const { path, body } = requestOf(client, MODELS[provider], text);
  const response = await fetch(`${gw.url}${path}`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-api-key': key, 'x-goog-api-key': key },
  });
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
  } catch { /* a cut transfer: what arrived is what counts */ }
  const raw = Buffer.concat(chunks);
  const events: string[] = [];
  if (client === 'bedrock-converse') {
    async function* once() { yield new Uint8Array(raw); }
    try { for await (const event of decodeBedrockEventStream(once())) events.push(shownOf(event.data)); } catch { /* a cut frame */ }
  } else {
    for (const line of raw.toString('utf8').split(/\r?\n/)) if (line.startsWith('data:')) events.push(shownOf(line.slice(5).trim()));
  }
  return { status: response.status, raw, events };
}

/** The events that carry three characters of the secret in a row. */
function leaking(events: string[]): string[] {
  return events.filter((text) => { for (let start = 0; start + 3 <= SECRET.length; start += 1) if (text.includes(SECRET.slice(start, start + 3))) return true; return false; });
}

async function expectStopped(client: Client, provider: Client, cell: OutputCell): Promise<void> {
  const received = await send(client, provider, `${cellMarker(cell)} go`);
  const raw = received.raw.toString('latin1');
  expect(received.status, raw).toBe(200);
  expect(leaking(received.events), raw).toEqual([]);
  // gw's own error event names the rule.
  expect(raw).toContain('github_token');
}

describe("the issue's findings, each with real gw serve", () => {
  it.each([
    ['output DLP reads a list of key names: GenAI functionCall.args', 'google-genai', 'google-genai', 'tool arguments whole'],
    ["output DLP reads a list of key names: an OpenAI tool call's function.name", 'openai-chat', 'openai-chat', 'tool name'],
    ['one scanner over every choice: n = 2, deltas alternating', 'openai-chat', 'openai-chat', 'n > 1 interleaved'],
    ['one scanner over every tool call: parallel calls alternating, same-format', 'openai-chat', 'openai-chat', 'parallel tool calls interleaved'],
    ['one scanner over every tool call: parallel calls alternating, Anthropic client of an OpenAI provider', 'anthropic-messages', 'openai-chat', 'parallel tool calls interleaved'],
    ['arguments scanned as raw JSON: \\u0067hp_, same-format', 'openai-chat', 'openai-chat', 'tool arguments escaped'],
    ['arguments scanned as raw JSON: \\u0067hp_ in input_json_delta, same-format', 'anthropic-messages', 'anthropic-messages', 'tool arguments escaped'],
    ['arguments scanned as raw JSON: \\u0067hp_ in input_json_delta, translated', 'anthropic-messages', 'openai-chat', 'tool arguments escaped'],
  ] as const)('%s', async (_finding, client, providerDialect, cell) => {
    await expectStopped(client, providerDialect, cell);
  });
});

const PROVIDERS = Object.keys(MODELS) as Client[];
const CELLS = Object.keys(OUTPUT_CELLS) as OutputCell[];
const ROWS = PROVIDERS.flatMap((providerDialect) => CELLS.filter((cell) => Array.isArray(cellEvents(providerDialect, cell))).flatMap((cell) => {
  const translated = TRANSLATED_CLIENT[providerDialect];
  return [[providerDialect, providerDialect, cell] as const, ...(translated === undefined ? [] : [[translated, providerDialect, cell] as const])];
}));

describe('the matrix on the real path: client ← provider × cell', () => {
  it('has same-format rows for every provider dialect and translated rows for all but Responses (a translated call never goes to /v1/responses)', () => {
    expect(new Set(ROWS.map(([, p]) => p))).toEqual(new Set(PROVIDERS));
    expect(Object.keys(TRANSLATED_CLIENT).sort()).toEqual(PROVIDERS.filter((p) => p !== 'openai-responses').sort());
  });

  it.each(ROWS)('%s ← %s × %s', async (client, providerDialect, cell) => {
    await expectStopped(client, providerDialect, cell);
  });
});

describe('control: nothing matched', () => {
  it.each(PROVIDERS)('%s same-format: the provider\'s bytes as they came', async (dialect) => {
    const received = await send(dialect, dialect, `${CLEAN_MARKER} go`);
    expect(received.status).toBe(200);
    const sent = Buffer.concat(cleanEvents(dialect).map((event) => { const bytes = wireBytes(dialect, event); return typeof bytes === 'string' ? Buffer.from(bytes) : bytes; }));
    expect(received.raw.equals(sent), received.raw.toString('latin1')).toBe(true);
  });
});
