// Hard spend budgets across instances (issue 16 with issue 15): two `gw serve` on one real
// PostgreSQL and one real Redis, a fake OpenAI server behind them, the official SDK in front.
// Parallel calls spread over both never take the team past its budget (each instance alone would
// let through a budget's worth); Redis's count equals the sum of the recorded costs; a restart
// neither forgets nor double-counts; a Redis that lost its data is raised to the trail's sum;
// an outage follows limits_when_redis_down; `gw usage --store` sums every instance's records.
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from '../../support/database-servers.js';
import { startFakeProvider, type FakeProvider } from '../../support/fake-providers/index.js';
import { GatewayJar, sleep, waitForStoreState } from '../helpers.js';

const OPENAI_KEY = 'sk-proj-budget-upstream-0001';
// 1,000 USD per million tokens each way: one call (≈7 tokens) costs about $0.007.
const BUDGET_USD = 0.1;

let postgres: PostgresServer;
let redis: RedisServer;
let openai: FakeProvider;
let store: string;
let key: string;
const jar = new GatewayJar();
let instances: GatewayProcess[] = [];

async function gw(args: string[]): Promise<string> {
  const result = await runGw([...args, '--store', store], { env: { GW_HOME: await makeHome('gw-admin-') } });
  if (result.code !== 0) throw new Error(`gw ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout + result.stderr;
}

const startInstance = () => jar.start({
  args: ['--store', store, '--redis', redis.url, '--standalone'],
  env: { GW_LOG_LEVEL: 'warn', OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${openai.url}/v1` },
});

function call(instance: GatewayProcess, index: number) {
  const client = new OpenAI({ apiKey: key, baseURL: `${instance.url}/v1`, maxRetries: 0 });
  return client.chat.completions.create({ model: 'gpt-4o-mini', max_tokens: 8, messages: [{ role: 'user', content: `budget ${index}` }] });
}

interface UsageJson { rows: Array<{ group: string; calls: number; cost_nano_usd: number }> }

async function recordedNanos(): Promise<{ calls: number; nanos: number }> {
  const usage = JSON.parse(await gw(['usage', '--by', 'team', '--json'])) as UsageJson;
  const row = usage.rows.find((entry) => entry.group === 'eng');
  return { calls: row?.calls ?? 0, nanos: row?.cost_nano_usd ?? 0 };
}

async function redisCount(): Promise<number> {
  const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    const keys = await client.keys('gw:spend:*');
    expect(keys).toHaveLength(1);
    return Number(await client.get(keys[0]!));
  } finally {
    client.disconnect();
  }
}

async function settled(expectedCalls: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await recordedNanos()).calls < expectedCalls) {
    if (Date.now() > deadline) throw new Error(`fewer than ${expectedCalls} records in the store`);
    await sleep(200);
  }
}

beforeAll(async () => {
  [postgres, redis, openai] = await Promise.all([startPostgres(), startRedis(), startFakeProvider('openai', { apiKey: OPENAI_KEY, eventDelayMs: 5 })]);
  store = await postgres.createDatabase();
  await gw(['db', 'migrate']);
  await gw(['teams', 'create', 'eng']);
  await gw(['prices', 'set', 'openai/gpt-4o-mini', '--input', '1000', '--output', '1000']);
  await gw(['budgets', 'set', 'team:eng', '--amount', String(BUDGET_USD), '--period', 'month']);
  key = /sk-gw-\w+/.exec(await gw(['keys', 'create', '--team', 'eng', '--name', 'spend']))![0];
  instances = await Promise.all([1, 2].map(() => startInstance()));
}, 120_000);

afterAll(async () => {
  await jar.stopAll();
  await Promise.all([postgres?.destroy(), redis?.destroy(), openai?.close()]);
});

it('parallel calls over two instances never pass the budget; Redis counts exactly what the records cost', async () => {
  // Waves of 10 parallel calls, 5 on each instance, until a whole wave is refused: the budget is
  // then full. Counting apart, each instance would have let a whole budget through (2× in all).
  const outcomes: Array<PromiseSettledResult<unknown>> = [];
  for (let wave = 0; wave < 20; wave += 1) {
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, index) => call(instances[index % 2]!, wave * 10 + index)));
    outcomes.push(...results);
    if (results.every((result) => result.status === 'rejected')) break;
  }
  const served = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
  const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  expect(served).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThanOrEqual(10);
  for (const { reason } of refused) {
    expect((reason as { status?: number }).status).toBe(402);
    expect((reason as Error).message).toContain('team:eng ($0.10 a month, hard, UTC)');
  }
  // Every call is recorded, refused ones too (at no cost).
  await settled(outcomes.length);
  const recorded = await recordedNanos();
  expect(recorded.calls).toBe(outcomes.length);
  expect(recorded.nanos).toBeLessThanOrEqual(BUDGET_USD * 1e9);
  // Filled to within one call's worst case (≈ $0.03 here), so a second budget's worth would show.
  expect(recorded.nanos).toBeGreaterThan(BUDGET_USD * 1e9 * 0.6);
  expect(await redisCount()).toBe(recorded.nanos);
}, 60_000);

it('a restart neither forgets nor double-counts; a Redis that lost its count is raised to what the trail recorded, once, by two instances', async () => {
  const before = await recordedNanos();
  await jar.stopAll();
  instances = [await startInstance()];
  expect(await redisCount()).toBe(before.nanos);
  await call(instances[0]!, 100).catch(() => undefined);
  await settled(before.calls + 1);
  expect(await redisCount()).toBe((await recordedNanos()).nanos);

  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();
  await jar.stopAll();
  instances = await Promise.all([1, 2].map(() => startInstance()));
  // Both instances read the trail; only one seed lands.
  expect(await redisCount()).toBe((await recordedNanos()).nanos);
  expect((await recordedNanos()).nanos).toBeLessThanOrEqual(BUDGET_USD * 1e9);
}, 60_000);

it('Redis stopped: open counts in each instance for the outage; closed refuses budgeted calls with 503; an empty Redis coming back is seeded from the trail', async () => {
  await redis.stop();
  // The shared count (full) is out of reach: each instance counts alone from 0 until Redis returns.
  const open = await call(instances[0]!, 200).then(() => 200, (caught: unknown) => (caught as { status?: number }).status);
  expect(open).toBe(200);

  await gw(['settings', 'set', 'limits_when_redis_down', 'closed']);
  await waitForStoreState(instances, store);
  const closed = await call(instances[1]!, 201).catch((caught: unknown) => caught) as InstanceType<typeof OpenAI.APIError>;
  expect(closed.status).toBe(503);
  expect(closed.headers?.get('retry-after')).toBe('1');
  expect(closed.message).toContain('limits_when_redis_down=closed');

  // This Redis keeps nothing across a restart: it comes back empty, and each instance seeds the
  // period again from the trail as it reconnects, so the budget refuses again (not from 0).
  await redis.start();
  const deadline = Date.now() + 10_000;
  let status = 0;
  while (Date.now() < deadline) {
    status = await call(instances[1]!, 202).then(() => 200, (caught: unknown) => (caught as { status?: number }).status ?? 0);
    if (status === 402) break;
    await sleep(200);
  }
  expect(status).toBe(402);
  const recorded = await recordedNanos();
  expect(await redisCount()).toBeGreaterThanOrEqual(recorded.nanos);
}, 60_000);
