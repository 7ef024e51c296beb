// The shared budget counter against a real redis-server (src/redis/redis-spend-counter.ts and its
// scripts): holds carry their call's id; a settle is once per call; a reserve that reaches Redis
// after its deadline or after its call settled holds nothing; reconciliation lowers a count that
// holds more than the trail plus live holds and raises one that holds less; a short freeze (shorter
// than the deadline) whose queued reserve still runs is replaced by its call's cost, by id, once Redis answers.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisConnection } from '../../../src/redis/redis-connection.js';
import { createRedisSpendCounter } from '../../../src/redis/redis-spend-counter.js';
import { keysOf, RECONCILE, RESERVE, SETTLE, SWEEP } from '../../../src/redis/redis-spend-scripts.js';
import { startRedis, type RedisServer } from '../../support/database-servers.js';
import { sleep, waitUntil } from '../helpers.js';

let redis: RedisServer;
let client: Redis;

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url);
}, 60_000);

afterAll(async () => {
  client?.disconnect();
  await redis?.destroy();
});

const script = (lua: string, key: string, ...args: Array<string | number>) => client.eval(lua, 4, ...keysOf(key), ...args);
const count = async (key: string) => Number(await client.get(`gw:spend:${key}`) ?? 0);
const redisMs = async () => { const [seconds, micros] = await client.time(); return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000); };

function signal(name: 'SIGSTOP' | 'SIGCONT'): void {
  process.kill((redis as RedisServer & { pid(): number }).pid(), name);
}

describe('spend scripts', () => {
  it('a hold is settled once by its call id; a reserve of a call already settled holds nothing', async () => {
    const key = 'team:a/month/UTC|2026-11-01T00:00:00.000Z';
    expect(await script(RESERVE, key, 'req_1', 300, 1000, -1)).toBe(1);
    expect(await count(key)).toBe(300);
    expect(await script(SETTLE, key, 'req_1', 70)).toBe(1);
    expect(await count(key)).toBe(70);
    expect(await script(SETTLE, key, 'req_1', 70)).toBe(0);
    expect(await count(key)).toBe(70);
    // The same call's reserve, replayed after its settle (it was queued behind a freeze).
    expect(await script(RESERVE, key, 'req_1', 300, 1000, -1)).toBe(-2);
    expect(await count(key)).toBe(70);
    // Over the limit: refused, nothing held.
    expect(await script(RESERVE, key, 'req_2', 931, 1000, -1)).toBe(0);
    expect(await client.hexists(`gw:spend-holds:${key}`, 'req_2')).toBe(0);
  });

  it('a reserve that reaches Redis after its deadline holds nothing', async () => {
    const key = 'team:b/month/UTC|2026-11-01T00:00:00.000Z';
    expect(await script(RESERVE, key, 'req_late', 300, -1, (await redisMs()) - 1)).toBe(-1);
    expect(await count(key)).toBe(0);
    expect(await script(RESERVE, key, 'req_on_time', 300, -1, (await redisMs()) + 1_000)).toBe(1);
    expect(await count(key)).toBe(300);
  });

  it('reconciliation: recorded + live holds + recently settled calls the trail lacks; lowered and raised alike', async () => {
    const key = 'team:c/month/UTC|2026-11-01T00:00:00.000Z';
    const since = (await redisMs()) - 60_000;
    await script(RESERVE, key, 'req_live', 30, -1, -1);
    await script(SETTLE, key, 'req_recorded', 5);
    await script(SETTLE, key, 'req_not_yet_recorded', 7);
    // Charges that never happened (late reserves from before this design) inflate the count.
    await client.incrby(`gw:spend:${key}`, 1_000);
    expect(await script(RECONCILE, key, 100, since, 'req_recorded')).toEqual(['1042', '137']);
    expect(await count(key)).toBe(137);
    // A Redis that lost the count is raised the same way.
    await client.set(`gw:spend:${key}`, '0');
    expect(await script(RECONCILE, key, 100, since, 'req_recorded')).toEqual(['0', '137']);
  });

  it('a hold whose call never settled expires: the sweep takes it off the count', async () => {
    const key = 'team:d/month/UTC|2026-11-01T00:00:00.000Z';
    await script(RESERVE, key, 'req_orphan', 500, -1, -1);
    await script(RESERVE, key, 'req_running', 200, -1, -1);
    await client.hset(`gw:spend-holds:${key}`, 'req_orphan', `500 ${(await redisMs()) - 1}`);
    expect(await script(SWEEP, key)).toBe('500');
    expect(await count(key)).toBe(200);
    // Settled after its hold expired (a call longer than the hold's life): its cost is added then.
    await script(SETTLE, key, 'req_orphan', 40);
    expect(await count(key)).toBe(240);
  });
});

describe('counter through a freeze', () => {
  let connection: RedisConnection;
  let mode: 'open' | 'closed' = 'open';

  beforeAll(async () => {
    connection = connectRedis(redis.url, () => undefined);
    await waitUntil(() => connection.deadline() >= 0, { what: 'the connection measured Redis’s clock' });
  });
  afterAll(async () => { await connection?.close(); });

  it('a reserve queued by a short freeze that still runs in time is replaced by its call’s cost once Redis answers; closed mode refuses at once', async () => {
    const counter = createRedisSpendCounter(connection, () => mode);
    const key = 'team:e/month/UTC|2026-11-01T00:00:00.000Z';
    expect(await counter.reserve(key, 'req_before', 300, 10_000)).toBe(true);
    await counter.settle(key, 'req_before', 50);

    signal('SIGSTOP');
    let started = Date.now();
    // Sent into the freeze: the breaker gives up on it after 250 ms of silence, and this process counts it.
    expect(await counter.reserve(key, 'req_frozen', 300, 10_000)).toBe(true);
    const frozenMs = Date.now() - started;
    mode = 'closed';
    started = Date.now();
    await expect(counter.reserve(key, 'req_refused', 300, 10_000)).rejects.toMatchObject({ code: 'GW_ERR_LIMITS_UNAVAILABLE' });
    const refusedMs = Date.now() - started;
    await counter.settle(key, 'req_frozen', 60);
    await sleep(Math.max(0, 500 - frozenMs - refusedMs));
    signal('SIGCONT');
    mode = 'open';

    // The queued reserves ran (within their deadline) and held 300 each; the settle kept for
    // req_frozen replaces its hold by its cost (60), the release of req_refused takes its hold back.
    await waitUntil(async () => !connection.breaker.isOpen() && (await client.hlen(`gw:spend-holds:${key}`)) === 0, { what: 'the late holds replaced', timeoutMs: 5_000 });
    expect(await client.hget(`gw:spend-done:${key}`, 'req_frozen')).toBe('60');
    expect(await client.hget(`gw:spend-done:${key}`, 'req_refused')).toBe('0');
    expect(await count(key)).toBe(110);
    expect(frozenMs).toBeLessThan(600);
    expect(refusedMs).toBeLessThan(50);
    counter.close();
  }, 30_000);
});
