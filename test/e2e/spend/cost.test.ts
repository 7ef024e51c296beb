// Cost end to end, through a real `gw serve` and the official SDKs against fake providers:
// every call's cost is in its audit record (dataset price, local override, unknown), on the
// buffered answer as x-gw-cost-usd, and in gw_cost_usd_total; the same call translated to
// another dialect records the same usage and cost; `gw usage` adds up to the records' costs.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup as runGw } from '../../support/gateway-process.js';
import { readAudit, type AuditLine } from '../helpers.js';
import { auditRecord, startRig, type Rig } from '../forwarding/support.js';

let rig: Rig;
let anthropic: Anthropic;
let openai: OpenAI;

beforeAll(async () => {
  rig = await startRig({
    eventDelayMs: 5,
    // A negotiated price for gpt-4o: 2 USD per million input tokens, 10 per million output.
    prepareHome: async (home) => {
      const set = await runGw(['prices', 'set', 'openai/gpt-4o', '--input', '2', '--output', '10'], { home });
      expect(set.code, set.stderr).toBe(0);
      // A routing rule to a model nobody prices: its calls are reported under that model (issue 40).
      const route = await runGw(['routes', 'add', 'cheap', '--target', 'openai/gpt-nobody-prices-this'], { home });
      expect(route.code, route.stderr).toBe(0);
    },
  });
  anthropic = new Anthropic({ apiKey: rig.key, baseURL: rig.gw.url, maxRetries: 0 });
  openai = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0 });
}, 30_000);

afterAll(async () => { await rig?.close(); });

interface Tokens { input: number; output: number }

// https://www.anthropic.com/pricing#api — Claude Sonnet 4: 3 USD per million input tokens, 15 per million output.
const sonnetNanos = (tokens: Tokens) => tokens.input * 3_000 + tokens.output * 15_000;
const PROMPT = 'the quick brown fox jumps over the lazy dog';

describe('cost of a call', () => {
  it('Anthropic SDK, JSON: dataset price in the record, the header and the metrics', async () => {
    const { data, response } = await anthropic.messages.create({
      model: 'anthropic/claude-sonnet-4-20250514', max_tokens: 64, messages: [{ role: 'user', content: PROMPT }],
    }).withResponse();
    const record = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
    const tokens = { input: data.usage.input_tokens, output: data.usage.output_tokens };
    expect(tokens.input).toBeGreaterThan(0);
    expect(record.cost).toEqual({ source: 'usage', nano_usd: sonnetNanos(tokens), price: 'dataset', priced_as: 'claude-sonnet-4-0' });
    expect(Number(response.headers.get('x-gw-cost-usd'))).toBeCloseTo(sonnetNanos(tokens) / 1e9, 12);
    const metrics = await (await fetch(`${rig.gw.url}/metrics`)).text();
    expect(metrics).toMatch(/gw_cost_usd_total\{team="local",provider="anthropic",model="claude-sonnet-4-0"\} [0-9.e-]+/);
  });

  it('the same call from an OpenAI client (translated): the same usage and the same cost', async () => {
    const native = await anthropic.messages.create({ model: 'anthropic/claude-sonnet-4-20250514', max_tokens: 64, messages: [{ role: 'user', content: PROMPT }] }).withResponse();
    const translated = await openai.chat.completions.create({ model: 'anthropic/claude-sonnet-4-20250514', max_tokens: 64, messages: [{ role: 'user', content: PROMPT }] }).withResponse();
    const [a, b] = await Promise.all([
      auditRecord(rig.gw.home, native.response.headers.get('x-request-id')!),
      auditRecord(rig.gw.home, translated.response.headers.get('x-request-id')!),
    ]);
    expect(b.family).not.toBe(a.family);
    expect(b.tokens).toEqual(a.tokens);
    expect(b.cost).toEqual(a.cost);
    expect(translated.response.headers.get('x-gw-cost-usd')).toBe(native.response.headers.get('x-gw-cost-usd'));
  });

  it('OpenAI SDK, stream: a local override prices it; the cost is in the record (no header: it leaves first)', async () => {
    const { data: stream, response } = await openai.chat.completions.create({
      model: 'gpt-4o', messages: [{ role: 'user', content: PROMPT }], stream: true, stream_options: { include_usage: true },
    }).withResponse();
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) usage = chunk.usage ?? usage;
    expect(response.headers.get('x-gw-cost-usd')).toBeNull();
    const record = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
    // 2 USD per million input = 2,000 nano-USD a token; 10 per million output = 10,000. openai 7 stops reading at
    // `data: [DONE]` and closes the body (6.x read to the end), so gw may see the hang-up before its relay ends:
    // the same usage and price, read as the answer passed or just after (docs/wire-fidelity.md).
    expect(record.cost).toEqual({ source: expect.stringMatching(/^usage(_after_hangup)?$/), nano_usd: usage!.prompt_tokens * 2_000 + usage!.completion_tokens * 10_000, price: 'override', priced_as: 'gpt-4o' });
  });

  it('a model with no known price is recorded as unknown, never 0', async () => {
    const { response } = await openai.chat.completions.create({ model: 'openai/gpt-nobody-prices-this', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(response.headers.get('x-gw-cost-usd')).toBe('unknown');
    const record = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
    expect(record.tokens).toBeDefined();
    expect(record.cost).toEqual({ price: 'unknown', source: 'usage' });
    const metrics = await (await fetch(`${rig.gw.url}/metrics`)).text();
    expect(metrics).toMatch(/gw_cost_unknown_total\{provider="openai"\} [1-9]/);
  });

  it('a stream with no usage from a model with no known price is counted as unpriced, not left out', async () => {
    // The mock streams OpenAI's way: no usage chunk unless stream_options.include_usage; no dataset prices it.
    const { data: stream, response } = await openai.chat.completions.create({
      model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }], stream: true,
    }).withResponse();
    for await (const chunk of stream) expect(chunk.usage ?? null).toBeNull();
    const record = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
    expect(record.tokens).toBeUndefined();
    expect(record.cost).toEqual({ price: 'unknown', source: 'no_usage' });
  });

  it('a routing rule\'s call is recorded under the model that served it, the rule beside it', async () => {
    const { response } = await openai.chat.completions.create({ model: 'cheap', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    const record = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
    expect(record).toMatchObject({ provider: 'openai', model: 'openai/gpt-nobody-prices-this', rule: 'cheap', cost: { price: 'unknown', source: 'usage' } });
  });
});

describe('gw usage', () => {
  it('adds up to the sum of the records\' costs, by every grouping', async () => {
    // A few more calls of several models, so groups differ.
    for (const model of ['gpt-4o', 'anthropic/claude-sonnet-4-20250514', 'gemini/gemini-2.5-flash']) {
      await openai.chat.completions.create({ model, messages: [{ role: 'user', content: `${PROMPT} ${model}` }] });
    }
    await rig.gw.stop('SIGTERM');
    // The cost objects are part of each record's hash: the chain still verifies.
    expect((await runGw(['audit', 'verify'], { home: rig.gw.home })).code).toBe(0);
    const records = (await readAudit(rig.gw.home)).filter((line) => line.kind === 'request') as Array<AuditLine & { cost?: { nano_usd?: number }; model?: string }>;
    const total = records.reduce((sum, record) => sum + (record.cost?.nano_usd ?? 0), 0);
    expect(total).toBeGreaterThan(0);
    for (const by of ['team', 'person', 'key', 'model', 'provider', 'day']) {
      const result = await runGw(['usage', '--by', by, '--since', '1d', '--json'], { home: rig.gw.home });
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout) as { rows: Array<{ group: string; calls: number; cost_nano_usd: number }> };
      expect(report.rows.reduce((sum, row) => sum + row.cost_nano_usd, 0), `--by ${by}`).toBe(total);
      expect(report.rows.reduce((sum, row) => sum + row.calls, 0), `--by ${by}`).toBe(records.length);
    }
    const byModel = JSON.parse((await runGw(['usage', '--by', 'model', '--since', '1d', '--json'], { home: rig.gw.home })).stdout) as { rows: Array<{ group: string; cost_nano_usd: number; unpriced_calls: number; rules?: string[] }> };
    const gpt = records.filter((record) => record.model === 'gpt-4o').reduce((sum, record) => sum + (record.cost?.nano_usd ?? 0), 0);
    expect(byModel.rows.find((row) => row.group === 'gpt-4o')?.cost_nano_usd).toBe(gpt);
    // The rule's call is counted with the model that served it (gw prices set openai/gpt-nobody-prices-this prices both), the rule named.
    expect(byModel.rows.find((row) => row.group === 'openai/gpt-nobody-prices-this')).toMatchObject({ calls: 2, unpriced_calls: 2, rules: ['cheap'] });
    // The stream that reported no usage is an unpriced call too.
    expect(byModel.rows.find((row) => row.group === 'mock/echo')).toMatchObject({ calls: 1, unpriced_calls: 1 });
    expect(byModel.rows.map((row) => row.group)).not.toContain('cheap');
    const table = (await runGw(['usage', '--by', 'model', '--since', '1d'], { home: rig.gw.home })).stdout;
    expect(table.split('\n')[0]).toMatch(/^model\s+via rule\s+calls/);
    expect(table).toMatch(/openai\/gpt-nobody-prices-this\s+cheap\s+2\s/);
    const csv = await runGw(['usage', '--by', 'provider', '--since', '1d', '--csv'], { home: rig.gw.home });
    expect(csv.stdout.split('\n')[0]).toBe('provider,calls,input,output,cached_read,cache_write,reasoning,cost_usd,unpriced_calls,images,audio_seconds,characters');
  });
});
