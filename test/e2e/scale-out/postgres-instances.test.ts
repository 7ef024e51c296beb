// Three `gw serve` instances on one real PostgreSQL (issue 15): what one instance or a CLI
// changes, every instance serves within 2 s; a device login started on one finishes on
// another; a file uploaded through one is fetched through another from the same account;
// every instance's audit chain verifies, also after a kill -9 under load; a PostgreSQL
// restart is survived without restarting gw.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';
import { GatewayJar, sleep, waitForStoreState } from '../helpers.js';

let postgres: PostgresServer;
let store: string;
const jar = new GatewayJar();
let instances: GatewayProcess[] = [];
let files: { server: Server; url: string; hits: string[] };
let key: string;

async function gw(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  // Any home: with --store, the state lives in PostgreSQL, not beside the CLI.
  const result = await runGw([...args, '--store', store], { env: { GW_HOME: await makeHome('gw-admin-'), ...env } });
  if (result.code !== 0) throw new Error(`gw ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout + result.stderr;
}

/** The request records an instance's trail has committed, from its /metrics. */
async function committedRequestRecords(instance: GatewayProcess): Promise<number> {
  const response = await fetch(`${instance.url}/metrics`, { headers: { authorization: `Bearer ${key}` } }).catch(() => null);
  if (response?.status !== 200) return 0;
  const line = /^gw_audit_records_total\{kind="request"\} (\d+)/m.exec(await response.text());
  return line ? Number(line[1]) : 0;
}

/** Every instance's home: their audit.pub files are the keys verify --store is told to trust. */
const instanceHomes: string[] = [];

async function startInstance(): Promise<GatewayProcess> {
  const instance = await jar.start({ args: ['--store', store, '--standalone'], env: { GW_LOG_LEVEL: 'warn', FILES_KEY: 'sk-files-account' } });
  instanceHomes.push(instance.home);
  return instance;
}

/** `--key <home>/audit.pub` for every instance started: verify --store fails closed on any other signer. */
function trustEveryInstance(): string[] {
  return instanceHomes.flatMap((home) => ['--key', `${home}/audit.pub`]);
}

function chat(instance: GatewayProcess, credential: string): Promise<Response> {
  return fetch(`${instance.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello' }] }),
  });
}

/** An OpenAI-shaped account that stores files: only it can answer for the ids it made. */
async function startFilesAccount(): Promise<typeof files> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      if (request.method === 'POST' && request.url === '/v1/files') return response.end(JSON.stringify({ id: 'file-scaleout1', object: 'file', purpose: 'batch', bytes: 5 }));
      if (request.method === 'GET' && request.url === '/v1/files/file-scaleout1') return response.end(JSON.stringify({ id: 'file-scaleout1', object: 'file', purpose: 'batch', bytes: 5 }));
      response.statusCode = 404;
      response.end(JSON.stringify({ error: { message: 'no such file', type: 'invalid_request_error' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

beforeAll(async () => {
  postgres = await startPostgres();
  store = await postgres.createDatabase();
  files = await startFilesAccount();
  expect(await gw(['db', 'migrate'])).toContain('applied 0001_initial');
  await gw(['teams', 'create', 'eng']);
  await gw(['people', 'add', 'ada@example.com', '--team', 'eng']);
  await gw(['providers', 'add', 'files-account', '--kind', 'openai', '--base-url', `${files.url}/v1`, '--api-key-env', 'FILES_KEY']);
  key = /sk-gw-\w+/.exec(await gw(['keys', 'create', '--team', 'eng', '--name', 'ci']))![0];
  instances = await Promise.all([startInstance(), startInstance(), startInstance()]);
}, 120_000);

afterAll(async () => {
  await jar.stopAll();
  files?.server.close();
  await postgres?.destroy();
});

describe('three instances on one PostgreSQL', () => {
  it('a start on a database without the schema is refused and says to migrate', async () => {
    const empty = await postgres.createDatabase();
    const error = await jar.start({ args: ['--store', empty, '--standalone'] }).then(() => null, (caught: unknown) => String(caught));
    expect(error).toContain('run gw db migrate --store URL first');
  });

  it('a key made by the CLI against the store is served by every instance', async () => {
    for (const instance of instances) expect((await chat(instance, key)).status).toBe(200);
  });

  it('a key revoked through the store is refused by every instance within 2 s', async () => {
    const made = await gw(['keys', 'create', '--team', 'eng', '--name', 'short-lived']);
    const doomed = /sk-gw-\w+/.exec(made)![0];
    const id = /vk_\w+/.exec(made)![0];
    await waitForStoreState(instances, store);
    for (const instance of instances) expect((await chat(instance, doomed)).status).toBe(200);
    await gw(['keys', 'revoke', id]);
    const revokedAt = Date.now();
    const refusedAfter = await Promise.all(instances.map(async (instance) => {
      for (;;) {
        if ((await chat(instance, doomed)).status === 401) return Date.now() - revokedAt;
        if (Date.now() - revokedAt > 5_000) return Infinity;
        await sleep(50);
      }
    }));
    for (const elapsed of refusedAfter) expect(elapsed).toBeLessThan(2_000);
  });

  it('a device login started on one instance is approved by the CLI and finishes on another', async () => {
    const form = (instance: GatewayProcess, path: string, fields: Record<string, string>) => fetch(`${instance.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
    const started = await (await form(instances[0]!, '/oauth/device/code', { client_id: 'gw-cli' })).json() as { device_code: string; user_code: string };
    await gw(['device', 'approve', started.user_code, '--person', 'ada@example.com']);
    await waitForStoreState(instances, store);
    const issued = await (await form(instances[2]!, '/oauth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.device_code })).json() as { access_token?: string; error?: string };
    expect(issued.error).toBeUndefined();
    expect(issued.access_token).toMatch(/^atu-/);
    expect((await chat(instances[1]!, issued.access_token!)).status).toBe(200);
  });

  it('a file uploaded through one instance is fetched through another from the account that made it', async () => {
    const upload = new FormData();
    upload.append('purpose', 'batch');
    upload.append('file', new Blob(['hello']), 'input.jsonl');
    const created = await fetch(`${instances[0]!.url}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'x-gw-provider': 'files-account' }, body: upload });
    expect(created.status).toBe(200);
    expect(((await created.json()) as { id: string }).id).toBe('file-scaleout1');
    // No header this time: only the shared memory of who made the id can send it to files-account.
    const fetched = await fetch(`${instances[1]!.url}/v1/files/file-scaleout1`, { headers: { authorization: `Bearer ${key}` } });
    expect(fetched.status).toBe(200);
    expect(files.hits).toContain('GET /v1/files/file-scaleout1');
  });

  it('every instance appends its own chain, and gw audit verify --store checks them all', async () => {
    const verified = await runGw(['audit', 'verify', '--store', store, ...trustEveryInstance()]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/\d+ chains, all intact/);
    const chains = Number(/(\d+) chains/.exec(verified.stdout)![1]);
    expect(chains).toBeGreaterThanOrEqual(3);
  });

  it('gw state export | gw state import moves the state to a file home and back', async () => {
    const exported = await gw(['state', 'export', '--with-secrets']);
    const home = await makeHome('gw-exported-');
    const file = `${home}/export.json`;
    await (await import('node:fs/promises')).writeFile(file, exported.slice(exported.indexOf('{')));
    const imported = await runGw(['state', 'import', file], { home });
    expect(imported.code, imported.stderr).toBe(0);
    const keys = await runGw(['keys', 'list'], { home });
    expect(keys.stdout).toContain('ci');
    const standalone = await jar.start({ home, args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
    expect((await chat(standalone, key)).status).toBe(200);
  });
});

describe('failures', () => {
  it('kill -9 of an instance under load loses no acknowledged record, and its chain verifies', async () => {
    const victim = await startInstance();
    // When each client got its 200: calls answered well before the kill must all have records.
    const answeredAt: number[] = [];
    let stop = false;
    const load = Promise.all(Array.from({ length: 4 }, async () => {
      while (!stop) {
        const response = await chat(victim, key).catch(() => null);
        if (response?.status === 200) { await response.text(); answeredAt.push(Date.now()); }
        if (!response) return;
      }
    }));
    // gw_audit_records_total counts a record only once its commit is acknowledged by PostgreSQL.
    let committed = 0;
    const deadline = Date.now() + 2500;
    while (Date.now() < deadline) {
      committed = Math.max(committed, await committedRequestRecords(victim));
      await sleep(100);
    }
    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    stop = true;
    await load;
    expect(committed).toBeGreaterThan(5);
    const verified = await runGw(['audit', 'verify', '--store', store, '--json', ...trustEveryInstance()]);
    const report = JSON.parse(verified.stdout) as { ok: boolean; chains: Array<{ instance: string; result: { ok: boolean; records: number } }> };
    expect(report.ok).toBe(true);
    const chain = report.chains.find((candidate) => candidate.instance.endsWith(`:${victim.child.pid}`))!;
    // Every record the trail acknowledged is there (plus gateway.start).
    expect(chain.result.records).toBeGreaterThanOrEqual(committed + 1);
    // A response does not wait for its record's group commit (README, "When a server goes away"),
    // so only calls answered in the last moments may lack one; a second is far beyond a 10 ms window.
    const answeredLongBefore = answeredAt.filter((at) => at < killedAt - 1000).length;
    expect(chain.result.records).toBeGreaterThanOrEqual(answeredLongBefore + 1);
  }, 60_000);

  it('an edited, a deleted and a truncated record, and an edited explorer copy, are each caught by verify --store', async () => {
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: store });
    await client.connect();
    try {
      const { rows } = await client.query<{ chain_id: string; head_seq: string }>('SELECT chain_id, head_seq FROM gw_audit_chains WHERE head_seq >= 4 ORDER BY started_at LIMIT 3');
      expect(rows.length).toBe(3);
      const [edited, deleted, truncated] = rows;
      // Any record's content: a field added after the fact (seq 2 may be a request or an admin change).
      await client.query(`UPDATE gw_audit_records SET line = replace(line, '"prev":"', '"edited":true,"prev":"') WHERE chain_id = $1 AND seq = 2`, [edited!.chain_id]);
      await client.query('DELETE FROM gw_audit_records WHERE chain_id = $1 AND seq = 2', [deleted!.chain_id]);
      await client.query('DELETE FROM gw_audit_records WHERE chain_id = $1 AND seq = $2', [truncated!.chain_id, truncated!.head_seq]);
      // The explorer's copy of a request's fields, moved to another person: the line is intact, the search would lie.
      const { rows: [copied] } = await client.query<{ chain_id: string; seq: string }>(
        "SELECT chain_id, min(seq) AS seq FROM gw_audit_records WHERE kind = 'request' AND NOT chain_id = ANY($1::uuid[]) GROUP BY chain_id LIMIT 1", [rows.map((row) => row.chain_id)]);
      expect(copied).toBeDefined();
      await client.query(`UPDATE gw_audit_records SET facets = facets || '{"person":"someone-else@example.com"}' WHERE chain_id = $1 AND seq = $2`, [copied!.chain_id, copied!.seq]);
      const verified = await runGw(['audit', 'verify', '--store', store, ...trustEveryInstance()]);
      expect(verified.code).toBe(1);
      expect(verified.stdout).toContain(`chain ${edited!.chain_id}`);
      const lineOf = (chain: string) => verified.stdout.split('\n').find((line) => line.includes(chain))!;
      expect(lineOf(edited!.chain_id)).toContain('BROKEN');
      expect(lineOf(deleted!.chain_id)).toContain('BROKEN');
      expect(lineOf(truncated!.chain_id)).toContain('BROKEN');
      expect(lineOf(copied!.chain_id)).toContain('BROKEN');
      expect(verified.stdout).toContain('differ from its line');
    } finally {
      await client.end();
    }
  });

  it('PostgreSQL restarted mid-run: instances refuse rather than serve unrecorded or from an unconfirmed cache, and recover without a restart', async () => {
    await postgres.stop();
    // Served from the cached state; the audit records wait in the queue and /health says so.
    const during = await chat(instances[0]!, key);
    expect(during.status).toBe(200);
    // audit_failure=block (the default): once a call cannot be recorded, or the cached state is
    // unconfirmed for 3 s (a revocation elsewhere might be missing), calls are refused, never served blind.
    let refused: Response | null = null;
    for (const deadline = Date.now() + 6_000; Date.now() < deadline && refused === null; await sleep(200)) {
      const response = await chat(instances[1]!, key);
      if (response.status === 503) refused = response; else await response.text();
    }
    expect(refused, 'an instance kept serving with its store unreachable').not.toBeNull();
    expect(((await refused!.json()) as { error: { code: string } }).error.code).toMatch(/^(audit|state)_unavailable$/);
    const health = await (await fetch(`${instances[1]!.url}/health`)).json() as { status: string; components: Record<string, { status: string }> };
    expect(health.status).not.toBe('ok');
    await postgres.start();
    const made = await gw(['keys', 'create', '--team', 'eng', '--name', 'after-restart']);
    const fresh = /sk-gw-\w+/.exec(made)![0];
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && (status = (await chat(instances[0]!, fresh)).status) !== 200) await sleep(200);
    expect(status).toBe(200);
    const after = await (await fetch(`${instances[0]!.url}/health`)).json() as { components: Record<string, { status: string }> };
    expect(after.components.audit!.status).toBe('ok');
    expect(after.components.state!.status).toBe('ok');
  }, 60_000);
});

describe('stopping without PostgreSQL', () => {
  it('a stop with PostgreSQL gone still ends within seconds, and says how many records were not committed', async () => {
    const instance = await startInstance();
    expect((await chat(instance, key)).status).toBe(200);
    await postgres.stop();
    try {
      await chat(instance, key).then((response) => response.text()).catch(() => undefined);
      const started = Date.now();
      const code = await instance.stop('SIGTERM');
      expect(Date.now() - started).toBeLessThan(12_000);
      expect(code).toBe(0);
      expect(instance.stdout() + instance.stderr()).toMatch(/audit records were not committed: PostgreSQL did not answer/);
    } finally {
      await postgres.start();
    }
  }, 40_000);
});
