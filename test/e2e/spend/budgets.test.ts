// Budgets against a real `gw serve`: N parallel calls against a hard budget never spend more
// than it (each holds its worst case, and the fake's real cost is below it), the refusal names
// the budget and its reset in the caller's format with retry-after, the counters survive a
// restart (rebuilt from the trail), and a soft budget only warns. The refusal is a 402 the official
// SDKs do not retry, with their default retries on (issue 40; docs/errors.md, "Budget refusals").
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { runGwSetup as runGw, startGatewayProcess } from '../../support/gateway-process.js';
import { readAudit, readSettledAudit } from '../helpers.js';
import { auditRecord, startRig, UPSTREAM_KEYS, type Rig } from '../forwarding/support.js';

let rig: Rig | undefined;
afterEach(async () => { await rig?.close(); rig = undefined; });

// An expensive made-up price so a few calls reach the budget: 1,000 USD per million tokens
// each way, i.e. 1,000,000 nano-USD a token.
async function pricedHome(home: string, budget: string[]): Promise<void> {
  for (const args of [['prices', 'set', 'openai/gpt-4o', '--input', '1000', '--output', '1000'], ['budgets', 'set', 'team:local', ...budget]]) {
    const result = await runGw(args, { home });
    expect(result.code, result.stderr).toBe(0);
  }
}

const BUDGET_USD = 0.2;

describe('hard budget', () => {
  it('20 parallel calls never overshoot it; refusals name it and its reset with retry-after; a restart keeps the count', async () => {
    rig = await startRig({ eventDelayMs: 5, prepareHome: (home) => pricedHome(home, ['--amount', String(BUDGET_USD), '--period', 'day']) });
    const client = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0 });
    const call = (index: number) => client.chat.completions.create({ model: 'gpt-4o', max_tokens: 8, messages: [{ role: 'user', content: `call number ${index}` }] }).withResponse();
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, index) => call(index)));
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    expect(results.length - refused.length).toBeGreaterThan(0);
    const error = refused[0]!.reason as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(402);
    expect(error.message).toContain('team:local ($0.20 a day, hard, UTC)');
    expect(error.message).toMatch(/resets at \d{4}-\d{2}-\d{2}T00:00:00\.000Z/);
    expect(Number(error.headers?.get('retry-after'))).toBeGreaterThan(0);
    expect((error.error as { code?: string }).code).toBe('budget_exceeded');

    await waitForRecords(rig.gw.home, 20);
    const spent = await spentNanos(rig.gw.home);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(BUDGET_USD * 1e9);

    // One call at a time until the budget has no room for another one's worst case.
    let filled = false;
    for (let index = 0; index < 60 && !filled; index += 1) {
      filled = await call(100 + index).then(() => false, (caught: unknown) => (caught as { status?: number }).status === 402);
    }
    expect(filled).toBe(true);
    await waitForRecords(rig.gw.home, 21);

    // Restarted on the same home: the counter is rebuilt from the trail, not reset to 0, so
    // the next call is refused at once, and more calls still cannot take the day past the budget.
    await rig.gw.stop('SIGTERM');
    const restarted = await startGatewayProcess({ home: rig.gw.home, env: { OPENAI_API_KEY: UPSTREAM_KEYS.openai, OPENAI_BASE_URL: `${rig.openai.url}/v1`, GW_LOG_LEVEL: 'warn' } });
    try {
      const again = new OpenAI({ apiKey: rig.key, baseURL: `${restarted.url}/v1`, maxRetries: 0 });
      const first = await again.chat.completions.create({ model: 'gpt-4o', max_tokens: 8, messages: [{ role: 'user', content: 'call number 100' }] }).catch((caught: unknown) => caught);
      expect((first as { status?: number }).status).toBe(402);
      const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, index) => again.chat.completions.create({ model: 'gpt-4o', max_tokens: 8, messages: [{ role: 'user', content: `after restart ${index}` }] })));
      expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
      expect(await spentNanos(rig.gw.home)).toBeLessThanOrEqual(BUDGET_USD * 1e9);
    } finally {
      await restarted.stop('SIGTERM');
    }
  }, 60_000);

  it('an Anthropic client is refused in its own format; a call larger than the whole budget gets no retry-after', async () => {
    rig = await startRig({ eventDelayMs: 5, prepareHome: (home) => pricedHome(home, ['--amount', '0.000001', '--period', 'month']) });
    const client = new Anthropic({ apiKey: rig.key, baseURL: rig.gw.url, maxRetries: 0 });
    const error = await client.messages.create({ model: 'openai/gpt-4o', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught) as InstanceType<typeof Anthropic.APIError>;
    expect(error.status).toBe(402);
    expect((error.error as { type?: string; error?: { type?: string } }).error?.type).toBe('billing_error');
    expect(error.message).toContain('team:local');
    expect(error.message).toContain('more than the whole budget');
    expect(error.headers?.get('retry-after')).toBeNull();
    expect(rig.openai.requests).toHaveLength(0);
  });

  it('the official SDKs, with their default retries, send a refused call once', async () => {
    rig = await startRig({ eventDelayMs: 5, prepareHome: (home) => pricedHome(home, ['--amount', '0.05', '--period', 'day']) });
    const once = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0 });
    let refusal: unknown = null;
    for (let index = 0; index < 20 && refusal === null; index += 1) {
      refusal = await once.chat.completions.create({ model: 'gpt-4o', max_tokens: 8, messages: [{ role: 'user', content: `fill ${index}` }] }).then(() => null, (caught: unknown) => caught);
    }
    expect(refusal).toBeInstanceOf(OpenAI.APIError);
    const before = (await readSettledAudit(rig.gw.home)).filter((line) => line.kind === 'request').length;
    const upstream = rig.openai.requests.length;
    // Their defaults: 2 retries, on 408, 409, 429 and 5xx.
    const openai = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1` });
    const anthropic = new Anthropic({ apiKey: rig.key, baseURL: rig.gw.url });
    const refusedOpenAi = await openai.chat.completions.create({ model: 'gpt-4o', max_tokens: 8, messages: [{ role: 'user', content: 'again' }] }).catch((caught: unknown) => caught);
    const refusedAnthropic = await anthropic.messages.create({ model: 'openai/gpt-4o', max_tokens: 8, messages: [{ role: 'user', content: 'again' }] }).catch((caught: unknown) => caught);
    for (const refused of [refusedOpenAi, refusedAnthropic]) {
      expect(refused).toMatchObject({ status: 402 });
      expect(String((refused as Error).message)).toMatch(/resets at \d{4}-\d{2}-\d{2}T00:00:00\.000Z/);
      expect(Number((refused as { headers?: Headers }).headers?.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((refusedOpenAi as InstanceType<typeof OpenAI.APIError>).type).toBe('budget_exceeded');
    const after = (await readSettledAudit(rig.gw.home)).filter((line) => line.kind === 'request').length;
    expect(after - before).toBe(2);
    expect(rig.openai.requests.length).toBe(upstream);
  }, 60_000);
});

describe('soft budget', () => {
  it('warns in a header and the audit, and never refuses', async () => {
    rig = await startRig({ eventDelayMs: 5, prepareHome: (home) => pricedHome(home, ['--amount', '0.000001', '--period', 'week', '--soft']) });
    const client = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0 });
    await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'first' }] });
    await waitForRecords(rig.gw.home, 1);
    for (let index = 0; index < 3; index += 1) {
      const { response } = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: `over ${index}` }] }).withResponse();
      expect(response.status).toBe(200);
      expect(response.headers.get('x-gw-budget-warning')).toMatch(/^team:local \(\$0\.0000010 a week, soft, UTC\) spent \(\$[0-9.]+\); resets \d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
      const record = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
      expect(record.warnings).toContain('budget_soft_exceeded: team:local');
    }
  });
});

async function requestRecords(home: string) {
  return (await readAudit(home)).filter((line) => line.kind === 'request') as Array<{ cost?: { nano_usd?: number } }>;
}

async function waitForRecords(home: string, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await requestRecords(home)).length < count) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} request records`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function spentNanos(home: string): Promise<number> {
  return (await requestRecords(home)).reduce((sum, record) => sum + (record.cost?.nano_usd ?? 0), 0);
}
