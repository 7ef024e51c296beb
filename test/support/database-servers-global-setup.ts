// The e2e project's global setup for the shared PostgreSQL servers (test/support/database-servers.ts):
// at the start, stops the servers of runs that were killed before their teardown; at the end,
// this run's.
import { destroyWorkerServers, orphanedRuns } from './database-servers.js';

export async function setup(): Promise<void> {
  for (const pid of await orphanedRuns()) await destroyWorkerServers(pid);
}

export async function teardown(): Promise<void> {
  await destroyWorkerServers(process.pid);
}
