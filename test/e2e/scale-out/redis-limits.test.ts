// Rate limits shared through a real Redis by three `gw serve` instances on one real
// PostgreSQL (issue 15): a 60-requests-per-minute policy under concurrent load spread
// across the three lets through exactly 60 (one would let through 60 each without Redis);
// Redis stopped mid-run: the configured fail mode is honoured and /health says which.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from '../../support/database-servers.js';
import { GatewayJar, sleep, waitForStoreState } from '../helpers.js';

let postgres: PostgresServer;
let redis: RedisServer;
let store: string;
const jar = new GatewayJar();
let instances: GatewayProcess[] = [];

async function gw(args: string[]): Promise<string> {
  const result = await runGw([...args, '--store', store], { env: { GW_HOME: await makeHome('gw-admin-') } });
  if (result.code !== 0) throw new Error(`gw ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout + result.stderr;
}

function chat(instance: GatewayProcess, key: string): Promise<Response> {
  return fetch(`${instance.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello' }] }),
  });
}

async function health(instance: GatewayProcess): Promise<{ status: string; components: Record<string, Record<string, unknown>> }> {
  return await (await fetch(`${instance.url}/health`)).json() as { status: string; components: Record<string, Record<string, unknown>> };
}

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  store = await postgres.createDatabase();
  await gw(['db', 'migrate']);
  await gw(['teams', 'create', 'eng']);
  await gw(['teams', 'create', 'ops']);
  await gw(['policy', 'set', 'team:eng', '--rpm', '60']);
  await gw(['policy', 'set', 'team:ops', '--rpm', '1000']);
  instances = await Promise.all([1, 2, 3].map(() => jar.start({ args: ['--store', store, '--redis', redis.url, '--standalone'], env: { GW_LOG_LEVEL: 'warn' } })));
}, 120_000);

afterAll(async () => {
  await jar.stopAll();
  await Promise.all([postgres?.destroy(), redis?.destroy()]);
});

it('an RPM limit of 60 under concurrent load across three instances lets exactly 60 through', async () => {
  const key = /sk-gw-\w+/.exec(await gw(['keys', 'create', '--team', 'eng', '--name', 'load']))![0];
  await waitForStoreState(instances, store);
  const statuses = await Promise.all(Array.from({ length: 150 }, async (_, index) => {
    const response = await chat(instances[index % 3]!, key);
    const body = await response.text();
    if (response.status === 429) {
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(body).toContain('60 requests per minute reached');
    }
    return response.status;
  }));
  expect(statuses.filter((status) => status === 200).length).toBe(60);
  expect(statuses.filter((status) => status === 429).length).toBe(90);
  for (const instance of instances) expect((await health(instance)).components.redis).toEqual({ status: 'ok' });
}, 60_000);

it('Redis stopped mid-run: open serves limited calls and says so in /health; closed refuses them with 503; back when Redis returns', async () => {
  const key = /sk-gw-\w+/.exec(await gw(['keys', 'create', '--team', 'ops', '--name', 'faults']))![0];
  await waitForStoreState(instances, store);
  expect((await chat(instances[0]!, key)).status).toBe(200);
  await redis.stop();
  const open = await chat(instances[0]!, key);
  expect(open.status).toBe(200);
  const reported = await health(instances[0]!);
  expect(reported.status).toBe('degraded');
  expect(reported.components.redis).toMatchObject({ status: 'degraded', limits_when_redis_down: 'open', limits: 'not enforced' });

  await gw(['settings', 'set', 'limits_when_redis_down', 'closed']);
  await waitForStoreState(instances, store);
  const closed = await chat(instances[1]!, key);
  expect(closed.status).toBe(503);
  expect(closed.headers.get('retry-after')).toBe('1');
  expect(await closed.json()).toMatchObject({ error: { code: 'limits_unavailable', message: expect.stringContaining('limits_when_redis_down=closed') } });
  expect((await health(instances[1]!)).components.redis).toMatchObject({ limits_when_redis_down: 'closed', limits: 'refusing limited calls' });

  await redis.start();
  const deadline = Date.now() + 10_000;
  let status = 0;
  while (Date.now() < deadline && (status = (await chat(instances[1]!, key)).status) !== 200) await sleep(200);
  expect(status).toBe(200);
  expect((await health(instances[1]!)).components.redis).toEqual({ status: 'ok' });
}, 60_000);

it('device-login limits hold across instances: a poll on another instance too soon is slow_down, and new codes per address are counted once', async () => {
  const form = (instance: GatewayProcess, path: string, fields: Record<string, string>) => fetch(`${instance.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  const started = await (await form(instances[0]!, '/oauth/device/code', { client_id: 'gw-cli' })).json() as { device_code: string };
  const poll = { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.device_code };
  await waitForStoreState(instances, store); // the code reaches every instance's cached state
  expect(((await (await form(instances[0]!, '/oauth/token', poll)).json()) as { error: string }).error).toBe('authorization_pending');
  expect(((await (await form(instances[1]!, '/oauth/token', poll)).json()) as { error: string }).error).toBe('slow_down');
  // 30 new codes per address per 10 minutes, whichever instance they reach (one used above).
  const statuses: number[] = [];
  for (let index = 0; index < 30; index += 1) statuses.push((await form(instances[index % 3]!, '/oauth/device/code', { client_id: 'gw-cli' })).status);
  expect(statuses.filter((status) => status === 200).length).toBe(29);
  expect(statuses.at(-1)).toBe(429);
}, 60_000);
