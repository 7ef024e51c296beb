// `gw serve --store URL --home DIR` with a home that does not exist yet creates it,
// as `gw serve --home DIR` does without a store (issue 30, deliverable 5), instead of
// failing with ENOENT on audit-signing.key. A real PostgreSQL and a real `gw serve`.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';
import { GatewayJar } from '../helpers.js';
import { makeHome, runGw } from '../../support/gateway-process.js';

let postgres: PostgresServer;
const jar = new GatewayJar();
beforeAll(async () => { postgres = await startPostgres(); }, 120_000);
afterAll(async () => { await jar.stopAll(); await postgres?.destroy(); });

describe('gw serve --store with a missing home', () => {
  it('creates the home (owner-only) and serves', async () => {
    const home = path.join(await makeHome(), 'not', 'yet');
    const store = await postgres.createDatabase();
    const migrated = await runGw(['db', 'migrate', '--store', store]);
    expect(migrated.code, migrated.stderr).toBe(0);
    const gateway = await jar.start({ home, args: ['--store', store] });
    const health = await fetch(`${gateway.url}/health`);
    expect(health.status).toBe(200);
    const made = await stat(home);
    expect(made.isDirectory()).toBe(true);
    expect(made.mode & 0o777).toBe(0o700);
    expect((await stat(path.join(home, 'audit-signing.key'))).isFile()).toBe(true);
  }, 120_000);
});
