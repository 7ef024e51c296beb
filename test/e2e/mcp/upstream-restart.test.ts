// A local MCP server that dies is started again by gw when its backoff ends, even when the
// timer fires before the clock gw reads has reached the end of the wait (timers and Date.now()
// can differ by a millisecond; here the clock does not move at all). Each start of the child
// appends a line to a file, so the starts are counted for real.
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { UpstreamServers } from '../../../src/mcp/upstream-servers.js';
import { waitUntil } from '../helpers.js';

let servers: UpstreamServers | undefined;
afterEach(async () => { await servers?.close(); });

it('starts a dead stdio server again when its backoff ends, whatever the clock says', async () => {
  const starts = path.join(await mkdtemp(path.join(os.tmpdir(), 'gw-mcp-starts-')), 'starts');
  // A "server" that records its start and exits before answering: every start fails, and is retried.
  const command = [process.execPath, '-e', `require('node:fs').appendFileSync(${JSON.stringify(starts)}, 'x\\n')`];
  const frozen = Date.now();
  servers = new UpstreamServers(() => [{ name: 'dies', transport: 'stdio', command, created_at: new Date(frozen).toISOString() }], {}, () => frozen);
  await expect(servers.client('dies')).rejects.toThrow();
  // Backoff 0.5 s, then 1 s: three starts take about 1.5 s; a loaded machine may take longer, and a
  // backoff that never fires (the bug) never gets there.
  const countStarts = async () => (await readFile(starts, 'utf8')).trim().split('\n').length;
  await waitUntil(async () => await countStarts() >= 3, { timeoutMs: 10_000, what: 'three starts of the dead server' });
  expect(await countStarts()).toBeGreaterThanOrEqual(3);
}, 15_000);
