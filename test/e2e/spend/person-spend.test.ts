// Spend is booked to the person from device login, never to the sidecar's session credential:
// real processes (a hub, `gw login`, a sidecar on the laptop, the official OpenAI SDK). The hub
// records the person and the cost on every call it serves for the sidecar, `gw usage --by person`
// on the hub names the person, a person budget on the hub refuses that person's calls through
// the sidecar, and `gw usage` on the laptop over the sidecar's own trail shows the same calls.
import path from 'node:path';
import { calcPrice } from '@pydantic/genai-prices';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayProcess } from '../../support/gateway-process.js';
import { readAudit, waitUntil } from '../helpers.js';
import { NO_KEYCHAIN, PERSON, TEAM, runChecked, startHubRig, startLogin, type HubRig } from '../device-login/support.js';

let rig: HubRig;
let sidecar: GatewayProcess;
let laptop: string;

// 1,000 USD per million tokens each way on the hub (1,000,000 nano-USD a token): a few calls
// reach the person's budget. The laptop knows no such price: its records carry the hub's.
const BUDGET_USD = 0.1;

beforeAll(async () => {
  rig = await startHubRig({
    prepare: async (home) => {
      await runChecked(['prices', 'set', 'openai/gpt-4o-mini', '--input', '1000', '--output', '1000'], home);
      await runChecked(['budgets', 'set', `person:${PERSON}`, '--amount', String(BUDGET_USD), '--period', 'day'], home);
    },
  });
  laptop = path.join(rig.hub.home, '..', `${path.basename(rig.hub.home)}-spend`);
  const login = startLogin(rig.hub.url, laptop, NO_KEYCHAIN);
  await runChecked(['device', 'approve', await login.code, '--person', PERSON], rig.hub.home);
  expect(await login.exited).toBe(0);
  sidecar = await rig.jar.start({ home: laptop, env: { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'warn' } });
}, 60_000);

afterAll(async () => { await rig?.close(); });

type RequestLine = { kind: string; person?: string; key_id?: string; team?: string; status?: number; cost?: { nano_usd?: number; price?: string }; request_id?: string };

/** The model calls in a trail (a sidecar's audit checkpoints also reach its hub, as witness requests). */
async function requests(home: string): Promise<RequestLine[]> {
  return (await readAudit(home)).filter((line) => line.kind === 'request' && !String(line.operation ?? '').startsWith('hub.witness'));
}

interface UsageJson { rows: Array<{ group: string; calls: number; cost_nano_usd: number; unpriced_calls: number }> }

async function usage(home: string, by: string): Promise<UsageJson> {
  return JSON.parse(await runChecked(['usage', '--by', by, '--json'], home)) as UsageJson;
}

describe('spend by person through a sidecar', () => {
  const client = () => new OpenAI({ apiKey: 'unused-on-a-sidecar', baseURL: `${sidecar.url}/v1`, maxRetries: 0 });
  const call = (index: number) => client().chat.completions.create({ model: 'gpt-4o-mini', max_tokens: 8, messages: [{ role: 'user', content: `spend ${index}` }] }).withResponse();
  let served = 0;

  it('the hub books every call to the person, with its cost; gw usage --by person names the person, never a session credential', async () => {
    for (let index = 0; index < 3; index += 1) {
      const { response } = await call(index);
      expect(response.status).toBe(200);
      served += 1;
    }
    await waitUntil(async () => (await requests(rig.hub.home)).filter((line) => line.status === 200).length >= served, { timeoutMs: 10_000, what: 'the hub records' });
    const hubCalls = (await requests(rig.hub.home)).filter((line) => line.team === TEAM);
    expect(hubCalls.length).toBe(served);
    for (const line of hubCalls) {
      expect(line.person).toBe(PERSON);
      expect(line.cost?.price).toBe('override');
      expect(line.cost?.nano_usd).toBeGreaterThan(0);
    }
    const byPerson = await usage(rig.hub.home, 'person');
    expect(byPerson.rows.map((row) => row.group)).toEqual([PERSON]);
    expect(byPerson.rows[0]!.cost_nano_usd).toBe(hubCalls.reduce((sum, line) => sum + line.cost!.nano_usd!, 0));
    const byKey = await usage(rig.hub.home, 'key');
    for (const row of byKey.rows) expect(row.group).not.toMatch(/^gws-|^atu-/);
  });

  it('a person budget on the hub refuses that person through the sidecar, naming the budget, and is never overshot', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 15 }, (_, index) => call(100 + index)));
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    const error = refused[0]!.reason as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(402);
    expect(error.message).toContain(`person:${PERSON}`);
    expect(Number(error.headers?.get('retry-after'))).toBeGreaterThan(0);
    served += outcomes.length - refused.length;
    await waitUntil(async () => (await requests(rig.hub.home)).filter((line) => line.team === TEAM).length >= served + refused.length, { timeoutMs: 10_000, what: 'the hub records' });
    const spent = (await requests(rig.hub.home)).reduce((sum, line) => sum + (line.cost?.nano_usd ?? 0), 0);
    expect(spent).toBeLessThanOrEqual(BUDGET_USD * 1e9);
  }, 30_000);

  it('gw usage on the laptop reads the sidecar\'s trail: the person\'s own calls, at the hub\'s price', async () => {
    await waitUntil(async () => (await requests(laptop)).filter((line) => line.status === 200).length >= served, { timeoutMs: 10_000, what: 'the sidecar records' });
    const laptopCalls = (await requests(laptop)).filter((line) => line.status === 200);
    expect(laptopCalls.length).toBe(served);
    expect(laptopCalls.every((line) => line.person === PERSON && line.cost?.price === 'hub')).toBe(true);
    const mine = await usage(laptop, 'person');
    expect(mine.rows.map((row) => row.group)).toEqual([PERSON]);
    const hubSpent = (await requests(rig.hub.home)).filter((line) => line.status === 200).reduce((sum, line) => sum + (line.cost?.nano_usd ?? 0), 0);
    expect(mine.rows[0]!.cost_nano_usd).toBe(hubSpent);
    expect(mine.rows[0]!.unpriced_calls).toBe(0);
  });

  it('a stream through the sidecar (no cost header) is priced on the laptop from the dataset by the model name', async () => {
    await runChecked(['budgets', 'remove', `person:${PERSON}`], rig.hub.home);
    const stream = async () => {
      const chunks = await client().chat.completions.create({ model: 'gpt-4o-mini', max_tokens: 8, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'a stream' }] });
      for await (const _chunk of chunks) { /* read to the end */ }
    };
    await waitUntil(async () => stream().then(() => true, () => false), { timeoutMs: 10_000, intervalMs: 300, what: 'the budget removal to reach the hub' });
    await waitUntil(async () => (await requests(laptop)).some((line) => line.status === 200 && line.cost?.price === 'dataset'), { timeoutMs: 10_000, what: 'the stream record' });
    const record = (await requests(laptop)).find((line) => line.status === 200 && line.cost?.price === 'dataset') as RequestLine & { tokens: { input: number; output: number } };
    const expected = calcPrice({ input_tokens: record.tokens.input, output_tokens: record.tokens.output }, 'gpt-4o-mini', { providerId: 'openai' })!.total_price;
    // openai 7 closes the body at data: [DONE]: gw may read the usage just after the hang-up (docs/wire-fidelity.md).
    expect(record.cost).toEqual({ source: expect.stringMatching(/^usage(_after_hangup)?$/), nano_usd: Math.round(expected * 1e9), price: 'dataset', priced_as: 'gpt-4o-mini' });
    expect(record.cost!.nano_usd).toBeGreaterThan(0);
  }, 30_000);
});
