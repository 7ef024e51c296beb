// Builds the live audit sink of `gw serve` from the settings read at start (audit_sink,
// audit_sink_token, audit_sink_max_backlog_bytes; docs/audit-sink.md): the target, its
// metrics on the gateway's registry, and its /health component. A setting that cannot work
// (a token variable that is not set) stops the start with a clear message. With a PostgreSQL
// store the queue is this instance's chains in the store (the database client loaded only then).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AuditSink, type AuditSinkHealth, type SinkTarget } from '../audit/sink/audit-sink.js';
import { createFileSinkTarget } from '../audit/sink/file-sink-target.js';
import { createFileTrailSource } from '../audit/sink/file-trail-source.js';
import type { SinkQueue } from '../audit/sink/sink-queue.js';
import { PUBLIC_KEY_FILE } from '../audit/signing-key.js';
import { SINK_CURSOR_FILE } from '../audit/sink/sink-cursor.js';
import { readSecretReference } from '../config/login-env.js';
import type { Logger } from '../logger.js';
import { createAuditSinkMetrics } from '../metrics/audit-sink-metrics.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { Settings } from '../state/schema.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { createHttpSinkTarget } from './audit-sink-http-target.js';

export interface AuditSinkInput {
  home: string;
  settings: Settings;
  env: Record<string, string | undefined>;
  /** The plain upstream client (not a sidecar's hub wrapper: the hub's credential must not reach a SIEM). */
  upstream: UpstreamClient;
  registry: GatewayMetrics['registry'];
  logger: Logger;
  storeUrl?: string;
}

export interface RunningAuditSink {
  health(): AuditSinkHealth;
  /** Delivers gateway.stop's checkpoint if it can within `ms`, then stops. */
  drain(ms: number): Promise<void>;
}

function tokenOf(settings: Settings, env: Record<string, string | undefined>): string | null {
  if (settings.audit_sink_token === null) return null;
  const token = readSecretReference(settings.audit_sink_token, env);
  if (token === null) throw new Error(`audit_sink_token = ${settings.audit_sink_token}, but that variable is not set in gw serve's environment: set it, or gw settings set audit_sink_token none`);
  return token;
}

/** This instance's chains in the store; one connection is enough for one loop. */
async function storeQueue(input: AuditSinkInput, storeUrl: string, target: SinkTarget, log: (message: string) => void): Promise<SinkQueue> {
  const [{ openDatabase }, { listChains, chainLinesAfter }, { StoreSinkQueue }] = await Promise.all([
    import('../postgres/database.js'), import('../postgres/postgres-audit-chains.js'), import('../audit/sink/store-sink-queue.js'),
  ]);
  const database = openDatabase(storeUrl, { maxConnections: 1 });
  const store = {
    listChains: () => listChains(database),
    readLines: (chainId: string, after: number, upTo: number, limit: number) => chainLinesAfter(database, chainId, after, upTo, limit),
    close: () => database.end(),
  };
  const ownKey = async () => (await readFile(path.join(input.home, PUBLIC_KEY_FILE), 'utf8')).trim();
  return new StoreSinkQueue(store, ownKey, target.lastDelivered?.bind(target), (message) => log(`audit sink ${target.name}: ${message}`));
}

export async function startAuditSink(input: AuditSinkInput): Promise<RunningAuditSink | null> {
  const setting = input.settings.audit_sink;
  if (setting === null) return null;
  const file = path.isAbsolute(setting);
  const target = file ? createFileSinkTarget(setting) : createHttpSinkTarget(input.upstream, setting, tokenOf(input.settings, input.env));
  const log = (message: string) => input.logger.warn({ component: 'audit_sink' }, message);
  const sink = new AuditSink({
    source: input.storeUrl ? await storeQueue(input, input.storeUrl, target, log) : createFileTrailSource(path.join(input.home, 'audit')), target, log,
    cursorFile: path.join(input.home, SINK_CURSOR_FILE), maxBacklogBytes: input.settings.audit_sink_max_backlog_bytes,
    // The hooks run once the sink has started, after `metrics` below exists.
    hooks: { delivered: (events, bytes) => metrics.delivered(events, bytes), failed: () => metrics.failed(), overBound: () => metrics.overBound() },
  });
  const metrics = createAuditSinkMetrics(input.registry, () => sink.backlog());
  sink.start();
  return { health: () => sink.health(), drain: (ms) => sink.drain(ms) };
}
