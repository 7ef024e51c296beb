// The gateway built in-process over a real state folder and a real audit trail,
// for fastify inject() tests of the door, the errors and the records.
import path from 'node:path';
import { openAuditTrail, type AuditTrail } from '../../src/audit/audit-trail.js';
import { verifyFile } from '../../src/audit/verify-file.js';
import { createLogger } from '../../src/logger.js';
import { createGatewayMetrics } from '../../src/metrics/gateway-metrics.js';
import type { GatewayServices } from '../../src/pipeline/gateway-services.js';
import { buildServer, type GatewayServer, type ServerOptions } from '../../src/server/build-server.js';
import type { Settings } from '../../src/state/schema.js';
import { openStateStore, type StateStore } from '../../src/state/state-store.js';
import { createTeam } from '../../src/state/teams.js';
import { createKey } from '../../src/state/virtual-keys.js';
import { makeHome } from './gateway-process.js';
import { Writable } from 'node:stream';
import { resolveProviders } from '../../src/config/resolve-providers.js';
import { createUpstreamClient } from '../../src/upstream/upstream-client.js';
import { withInProcessProviders } from '../../src/upstream/in-process-upstream.js';
import { answerMockCall } from '../../src/providers/mock/answer-mock-call.js';

export interface InProcessGateway extends GatewayServer {
  home: string;
  store: StateStore;
  audit: AuditTrail;
  services: GatewayServices;
  logLines: string[];
  key: string;
  keyId: string;
  auditRecords(): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export async function startInProcessGateway(settings: Partial<Settings> = {}, env: Record<string, string | undefined> = {}, serverOptions: ServerOptions = {}): Promise<InProcessGateway> {
  const home = await makeHome('gw-inproc-');
  const store = await openStateStore(home);
  await createTeam(store, 'alpha');
  const { key, record } = await createKey(store, { team: 'alpha', name: 'test', expiresAt: null });
  await store.update((draft) => { Object.assign(draft.settings, settings); });
  const audit = await openAuditTrail({ dir: path.join(home, 'audit'), keyPath: path.join(home, 'audit.key'), fsync: 'never' });
  const logLines: string[] = [];
  const destination = new Writable({ write(chunk, _encoding, done) { logLines.push(String(chunk)); done(); } });
  const services: GatewayServices = {
    state: store, audit, metrics: createGatewayMetrics({ processMetrics: false }),
    logger: createLogger({ destination }), now: () => new Date(),
    upstream: withInProcessProviders(createUpstreamClient(), answerMockCall),
    providers: () => ({ ...resolveProviders({ env, state: store.snapshot() }), aliases: store.snapshot().aliases }),
  };
  const server = await buildServer(services, serverOptions);
  await server.app.ready();
  return {
    ...server, home, store, audit, services, logLines, key, keyId: record.id,
    async auditRecords() {
      await audit.flush();
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(path.join(home, 'audit', 'audit.jsonl'), 'utf8');
      return text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    async close() {
      await server.app.close();
      server.door.close();
      await services.upstream.close();
      await audit.close();
      await store.close();
      const result = await verifyFile(path.join(home, 'audit', 'audit.jsonl'));
      if (!result.ok) throw new Error(`audit chain broken after test: ${JSON.stringify(result.firstBad)}`);
    },
  };
}
