// Prompt-cache economics end to end (docs/prompt-cache.md): a provider-shaped server answers
// each dialect with its own cache fields (Anthropic cache_read/cache_creation with 5-minute and
// 1-hour parts, OpenAI Chat and Responses cached_tokens and cache_write_tokens, Gemini
// cachedContentTokenCount, Bedrock cacheRead/WriteInputTokens), streamed and not, through a real
// `gw serve`. Checked: the record's tokens, its cost and what the cache saved, both worked out by
// hand at the price dataset's own cache rates; `gw usage --by session|team`'s cache columns;
// the admin usage report; /metrics; and a session that falls back mid-session recording the break.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { auditRecord } from '../forwarding/support.js';
import { readAudit, sleep, waitForState } from '../helpers.js';
import { FAIL_TRIGGER, startCacheUsageProvider, type CacheUsageProvider } from './cache-usage-provider.js';

type Client = 'chat' | 'responses' | 'messages' | 'genai' | 'bedrock';

const MODELS: Record<Client, string> = {
  chat: 'openai/gpt-5.6-terra', responses: 'openai/gpt-5.6-terra', messages: 'anthropic/claude-sonnet-4-5',
  genai: 'gemini/gemini-2.5-flash', bedrock: 'bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0',
};

const provider = startCacheUsageProvider({
  messages: { input_tokens: 200, cache_read_input_tokens: 8_000, cache_creation_input_tokens: 1_000, cache_creation: { ephemeral_5m_input_tokens: 400, ephemeral_1h_input_tokens: 600 }, output_tokens: 50 },
  chat: { prompt_tokens: 10_000, completion_tokens: 100, total_tokens: 10_100, prompt_tokens_details: { cached_tokens: 6_000, cache_write_tokens: 3_000 } },
  responses: { input_tokens: 10_000, output_tokens: 100, total_tokens: 10_100, input_tokens_details: { cached_tokens: 6_000, cache_write_tokens: 3_000 }, output_tokens_details: { reasoning_tokens: 0 } },
  genai: { promptTokenCount: 5_000, cachedContentTokenCount: 4_000, candidatesTokenCount: 20, totalTokenCount: 5_020 },
  bedrock: { inputTokens: 100, cacheReadInputTokens: 3_000, cacheWriteInputTokens: 500, outputTokens: 10, totalTokens: 3_610 },
});

/**
 * Hand-worked, in nano-USD per token = USD per million tokens × 1,000, at the bundled dataset's rates
 * (@pydantic/genai-prices; below every long-context tier):
 *  claude-sonnet-4-5: input 3, output 15, cache read 0.30, 5-minute write 3.75, 1-hour write 6.
 *  gpt-5.6-terra: input 2, output 12, cache read 0.20, cache write 2.50 (1.25× input).
 *  gemini-2.5-flash: input 0.30, output 2.50, cache read 0.03.
 *  bedrock us.anthropic.claude-sonnet-4-5 (regional, +10%): input 3.30, output 16.50, read 0.33, write 4.125.
 * saved = (the same tokens all priced as plain input) − cost = reads × (input − read rate) − writes × (write rate − input).
 */
const EXPECTED: Record<Client, { tokens: Record<string, number>; cost: number; saved: number; pricedAs: string }> = {
  messages: {
    tokens: { input: 9_200, output: 50, cached_read: 8_000, cache_write: 1_000, cache_write_1h: 600 },
    // 200×3000 + 8000×300 + 400×3750 + 600×6000 + 50×15000
    cost: 600_000 + 2_400_000 + 1_500_000 + 3_600_000 + 750_000,
    // 8000×(3000−300) − 400×(3750−3000) − 600×(6000−3000)
    saved: 21_600_000 - 300_000 - 1_800_000,
    pricedAs: 'claude-sonnet-4-5',
  },
  chat: {
    tokens: { input: 10_000, output: 100, cached_read: 6_000, cache_write: 3_000 },
    // 1000×2000 + 6000×200 + 3000×2500 + 100×12000
    cost: 2_000_000 + 1_200_000 + 7_500_000 + 1_200_000,
    // 6000×(2000−200) − 3000×(2500−2000)
    saved: 10_800_000 - 1_500_000,
    pricedAs: 'gpt-5.6-terra',
  },
  responses: {
    tokens: { input: 10_000, output: 100, cached_read: 6_000, cache_write: 3_000 },
    cost: 2_000_000 + 1_200_000 + 7_500_000 + 1_200_000,
    saved: 10_800_000 - 1_500_000,
    pricedAs: 'gpt-5.6-terra',
  },
  genai: {
    tokens: { input: 5_000, output: 20, cached_read: 4_000 },
    // 1000×300 + 4000×30 + 20×2500
    cost: 300_000 + 120_000 + 50_000,
    // 4000×(300−30)
    saved: 1_080_000,
    pricedAs: 'gemini-2.5-flash',
  },
  bedrock: {
    tokens: { input: 3_600, output: 10, cached_read: 3_000, cache_write: 500 },
    // 100×3300 + 3000×330 + 500×4125 + 10×16500
    cost: 330_000 + 990_000 + 2_062_500 + 165_000,
    // 3000×(3300−330) − 500×(4125−3300)
    saved: 8_910_000 - 412_500,
    pricedAs: 'regional.anthropic.claude-sonnet-4-5-20250929-v1:0',
  },
};

function requestOf(client: Client, stream: boolean): { path: string; body: unknown } {
  const model = MODELS[client];
  const system = 'You are a careful coding agent. '.repeat(20);
  switch (client) {
    case 'chat': return { path: '/v1/chat/completions', body: { model, stream, ...(stream ? { stream_options: { include_usage: true } } : {}), messages: [{ role: 'system', content: system }, { role: 'user', content: 'hi' }] } };
    case 'responses': return { path: '/v1/responses', body: { model, stream, instructions: system, input: 'hi' } };
    case 'messages': return { path: '/v1/messages', body: { model, stream, max_tokens: 64, system, messages: [{ role: 'user', content: 'hi' }] } };
    case 'genai': return { path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`, body: { systemInstruction: { parts: [{ text: system }] }, contents: [{ role: 'user', parts: [{ text: 'hi' }] }] } };
    case 'bedrock': return { path: `/litellm/bedrock/model/${encodeURIComponent(model)}/${stream ? 'converse-stream' : 'converse'}`, body: { system: [{ text: system }], messages: [{ role: 'user', content: [{ text: 'hi' }] }] } };
  }
}

let gw: GatewayProcess;
let fake: CacheUsageProvider;

async function gwCommand(...args: string[]): Promise<string> {
  const result = await runGw(args, { home: gw.home });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

/** Sends one call (read to its end) and returns its request id. */
async function send(path: string, body: unknown, session: string): Promise<{ status: number; id: string; text: string }> {
  const key = gw.bootstrapKey!;
  const response = await fetch(`${gw.url}${path}`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-api-key': key, 'x-goog-api-key': key, 'x-gw-session': session },
  });
  const text = Buffer.from(await response.arrayBuffer()).toString('latin1');
  return { status: response.status, id: response.headers.get('x-request-id') ?? '', text };
}

beforeAll(async () => {
  fake = await provider;
  gw = await startGatewayProcess({
    env: {
      OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${fake.url}/v1`, ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: fake.url,
      GEMINI_API_KEY: 'upstream-gemini', GOOGLE_GEMINI_BASE_URL: fake.url, AWS_BEARER_TOKEN_BEDROCK: 'upstream-bedrock', BEDROCK_BASE_URL: fake.url,
      GW_LOG_LEVEL: 'warn',
    },
  });
  expect(gw.bootstrapKey).toBeTruthy();
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await fake?.close();
});

const CASES = (Object.keys(MODELS) as Client[]).flatMap((client) => [false, true].map((stream) => [client, stream] as const));

describe('each dialect\'s cache fields, streamed and not: the record, its cost and its saving', () => {
  it.each(CASES)('%s, stream %s', async (client, stream) => {
    const { path, body } = requestOf(client, stream);
    const sent = await send(path, body, `sess-${client}`);
    expect(sent.status, sent.text).toBe(200);
    const record = await auditRecord(gw.home, sent.id);
    const expected = EXPECTED[client];
    expect(record.tokens).toMatchObject(expected.tokens);
    expect(record.cost).toEqual({ source: 'usage', nano_usd: expected.cost, price: 'dataset', priced_as: expected.pricedAs, cache_saved_nano_usd: expected.saved });
    expect(record.session).toBe(`sess-${client}`);
  }, 30_000);
});

describe('the cache per session and team', () => {
  it('gw usage --by session --json: reads, writes, hit ratio and saving per session', async () => {
    const report = JSON.parse(await gwCommand('usage', '--by', 'session', '--json')) as { rows: Array<Record<string, unknown>> };
    for (const client of Object.keys(MODELS) as Client[]) {
      const row = report.rows.find((entry) => entry.group === `sess-${client}`)!;
      const { tokens, saved } = EXPECTED[client];
      // Two calls per session: one streamed, one not.
      expect(row).toMatchObject({
        calls: 2, cache_read_tokens: 2 * tokens.cached_read!, cache_write_tokens: 2 * (tokens.cache_write ?? 0),
        cache_hit_ratio: Math.round((tokens.cached_read! / tokens.input!) * 10_000) / 10_000, cache_saved_nano_usd: 2 * saved, cache_breaks: 0,
      });
    }
    const anthropic = report.rows.find((entry) => entry.group === 'sess-messages')!;
    // 8000 of 9200 input tokens came from the cache.
    expect(anthropic.cache_hit_ratio).toBe(0.8696);
    expect(anthropic.cache_saved_usd).toBe('0.039000000');
  });

  it('gw usage --by team --cache: the table adds up every session', async () => {
    const table = await gwCommand('usage', '--by', 'team', '--cache');
    const savedAll = (Object.values(EXPECTED).reduce((sum, entry) => sum + entry.saved, 0) * 2) / 1e9;
    const line = table.split('\n').find((text) => text.startsWith('local'))!;
    expect(line).toContain(savedAll.toFixed(9));
    expect(table.split('\n')[0]).toMatch(/hit_ratio\s+saved_usd\s+cache_breaks/);
    const csv = (await gwCommand('usage', '--by', 'session', '--cache', '--csv')).trim().split('\n');
    expect(csv[0]).toBe('session,calls,input,cache_read,cache_write,hit_ratio,saved_usd,cache_breaks,cost_usd');
    expect(csv).toContain(`sess-genai,2,10000,8000,0,80.00%,0.002160000,0,${((2 * EXPECTED.genai.cost) / 1e9).toFixed(9)}`);
  });

  it('/metrics: gw_input_tokens_total, gw_cache_read_tokens_total, gw_cache_write_tokens_total and gw_cache_saved_usd by team, provider and priced model', async () => {
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).toContain('gw_cache_read_tokens_total{team="local",provider="anthropic",model="claude-sonnet-4-5"} 16000');
    expect(metrics).toContain('gw_cache_write_tokens_total{team="local",provider="anthropic",model="claude-sonnet-4-5"} 2000');
    expect(metrics).toContain('gw_cache_read_tokens_total{team="local",provider="gemini",model="gemini-2.5-flash"} 8000');
    expect(metrics).toContain('gw_cache_write_tokens_total{team="local",provider="bedrock",model="regional.anthropic.claude-sonnet-4-5-20250929-v1:0"} 1000');
    expect(metrics).toContain('gw_cache_read_tokens_total{team="local",provider="openai",model="gpt-5.6-terra"} 24000');
    expect(metrics).toContain('gw_cache_saved_usd{team="local",provider="gemini",model="gemini-2.5-flash"} 0.00216');
    // The hit ratio from the counters: 16,000 of 18,400 input tokens.
    expect(metrics).toContain('gw_input_tokens_total{team="local",provider="anthropic",model="claude-sonnet-4-5"} 18400');
  });

  it('the admin usage report: every group carries the same cache fields, and /admin/api/usage/cache groups by session', async () => {
    const token = (await gwCommand('admin', 'tokens', 'create', '--name', 'cache')).trim();
    const headers = { authorization: `Bearer ${token}` };
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await fetch(`${gw.url}/admin/api/whoami`, { headers })).status !== 200) await sleep(50);
    const usage = await (await fetch(`${gw.url}/admin/api/usage?by=team`, { headers })).json() as { groups: Array<Record<string, unknown>> };
    const cli = JSON.parse(await gwCommand('usage', '--by', 'team', '--json')) as { rows: Array<Record<string, unknown>> };
    const fields = ['cache_read_tokens', 'cache_write_tokens', 'cache_hit_ratio', 'cache_saved_nano_usd', 'cache_breaks'];
    const pick = (row: Record<string, unknown>) => Object.fromEntries(fields.map((name) => [name, row[name]]));
    expect(pick(usage.groups.find((group) => group.group === 'local')!)).toEqual(pick(cli.rows.find((row) => row.group === 'local')!));
    const bySession = await (await fetch(`${gw.url}/admin/api/usage/cache?by=session`, { headers })).json() as { rows: Array<Record<string, unknown>> };
    const session = bySession.rows.find((row) => row.group === 'sess-genai')!;
    expect(session).toMatchObject({ requests: 2, input_tokens: 10_000, cache_read_tokens: 8_000, cache_hit_ratio: 0.8, cache_saved_nano_usd: 2_160_000 });
    const refused = await fetch(`${gw.url}/admin/api/usage/cache?by=colour`, { headers });
    expect(refused.status).toBe(400);
  });
});

describe('a fallback mid-session breaks the cache', () => {
  it('the call that fell back, and only it, says cache_break; gw usage counts it for the session', async () => {
    // Anthropic first (all but certainly: weight 1,000,000 to 1), OpenAI as the fallback.
    await gwCommand('routes', 'add', 'agent-model', '--target', 'anthropic/claude-sonnet-4-5,weight=1000000', '--target', 'openai/gpt-5.6-terra,weight=1');
    await waitForState(gw);
    const session = 'sess-fallback';
    const calls = [];
    for (const text of ['first turn', `second turn ${FAIL_TRIGGER}`, 'third turn']) {
      const sent = await send('/v1/messages', { model: 'agent-model', max_tokens: 64, messages: [{ role: 'user', content: text }] }, session);
      expect(sent.status, sent.text).toBe(200);
      calls.push(await auditRecord(gw.home, sent.id));
    }
    expect(calls.map((record) => record.provider)).toEqual(['anthropic', 'openai', 'anthropic']);
    expect(calls.map((record) => (record.outcome as string[]).includes('cache_break'))).toEqual([false, true, false]);
    expect(calls[1]!.warnings).toContain('attempt_failed: anthropic/claude-sonnet-4-5');
    const report = JSON.parse(await gwCommand('usage', '--by', 'session', '--json')) as { rows: Array<Record<string, unknown>> };
    expect(report.rows.find((row) => row.group === session)).toMatchObject({ calls: 3, cache_breaks: 1 });
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).toContain('gw_cache_breaks_total{team="local",provider="openai"} 1');
    const trail = await readAudit(gw.home);
    expect(trail.filter((line) => line.session === session && (line.outcome as string[] | undefined)?.includes('cache_break'))).toHaveLength(1);
  }, 60_000);
});
