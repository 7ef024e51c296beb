// The composition root of `gw serve`: opens state and the audit trail, builds
// every service once (build-services.ts), then the fastify server over them; and a
// graceful stop (stop accepting, let in-flight requests finish within a bound,
// close refusal windows, write gateway.stop and flush the trail).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { openAuditTrail } from '../audit/audit-trail.js';
import { WitnessPusher } from '../audit/witness-pusher.js';
import { addWitnessTargets, closedCheckpointsLacking } from './witness-targets.js';
import type { SignedCheckpoint } from '../audit/checkpoint.js';
import { CosignatureKeeper, fileCosignatureSink } from './cosignature-keeper.js';
import { startAuditSink, type RunningAuditSink } from './start-audit-sink.js';
import { holdTrailToWitnesses, prepareWitnessStart, readersOf, type WitnessReader } from './witness-at-start.js';
import { rotateUnderWitness } from './witness-before-rotate.js';
import { createLogger, type Logger } from '../logger.js';
import type { HealthComponent } from '../metrics/health-component.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import { bootstrapLocalTeam } from '../state/bootstrap.js';
import { openResourceIdStore } from '../state/resource-ids.js';
import { openState } from '../postgres/open-state.js';
import { openStoreTrailSource } from '../postgres/store-trail-source.js';
import { ShutdownSteps } from './shutdown-steps.js';
import { maskUrlCredentials } from '../mask-url-credentials.js';
import { openSharedCounters, openSharedStores } from './shared-stores.js';
import { createFileTrailReader } from '../admin/trail-reader.js';
import { createAuditPageSource } from './audit-page-source.js';
import type { AdminCommands } from '../admin/admin-api.js';
import type { StateStore } from '../state/state-store.js';
import { startOutboxDrain } from './drain-admin-outbox.js';
import { UpstreamServers } from '../mcp/upstream-servers.js';
import { representativeModels } from './representative-models.js';
import { hostname } from 'node:os';
import { buildServer, type GatewayServer } from '../server/build-server.js';
import { buildServices } from './build-services.js';
import { keepBudgetCounters } from './budget-counters.js';
import { openTrailSource } from '../spend/trail-source.js';
import { createSpendServices } from '../spend/spend-services.js';
import { sampleEventLoopQueue } from '../metrics/gateway-metrics.js';
import { startTracing } from '../telemetry/start-tracing.js';
import { startOtlpRelay } from './start-otlp-relay.js';
import { GATEWAY_VERSION } from '../pipeline/govern/upstream-headers.js';
import { describeListenError } from './listen-errors.js';
import { createProviderSource } from './provider-source.js';
import { prepareMode } from './gateway-mode.js';
import type { SidecarLogin } from '../sidecar/hub-session.js';
import { answerMockCall } from '../providers/mock/answer-mock-call.js';
import { withInProcessProviders } from '../upstream/in-process-upstream.js';
import { createUpstreamClient, type UpstreamTimeouts } from '../upstream/upstream-client.js';

/** How long a stopping gateway waits for its witnesses to take the last checkpoint. */
const WITNESS_DRAIN_MS = 2_000;
/** How long a stopping gateway tries to deliver gateway.stop's record to the audit sink. */
const SINK_DRAIN_MS = 3_000;

export interface GatewayOptions {
  home: string;
  host: string;
  port: number;
  tls?: { certFile: string; keyFile: string };
  logger?: Logger;
  /** How long in-flight requests may take to finish after a stop signal. */
  drainTimeoutMs?: number;
  /** Where provider keys and base URLs are read from (process.env in `gw serve`). */
  env: Record<string, string | undefined>;
  upstreamTimeouts?: UpstreamTimeouts;
  /** Sidecar mode: the stored login (or GW_TOKEN) whose hub every model routes through. */
  sidecar?: SidecarLogin;
  /** Sidecar with --allow-remote-sidecar: the non-loopback peers it serves (--allow-remote-peer); loopback only without. */
  remotePeer?: (address: string) => boolean;
  /** Start although the audit log does not reach its checkpoint, recording the gap (`--accept-audit-gap`). */
  acceptAuditGap?: boolean;
  /** PostgreSQL for state, resource ids and the audit trail (several instances share it). */
  storeUrl?: string;
  /** Redis/Valkey for the rate-limit counters several instances share. */
  redisUrl?: string;
  /** A hub: admins' remote governance commands, run by the CLI's code (handed in by gw serve). */
  adminCommands?: (store: StateStore) => AdminCommands;
}

export interface RunningGateway {
  url: string;
  /** The plaintext key made on the first start with an empty home (shown once), else null. */
  bootstrapKey: string | null;
  /** Provider names in force at start, and why any were skipped. */
  providerNames: string[];
  providerWarnings: string[];
  services: GatewayServices;
  mode: 'standalone' | 'sidecar';
  /** Where state and the audit trail live, for the banner (a database URL's password masked). */
  storage: string;
  /** Models to suggest to tools: a sidecar's hub's (waiting briefly for the first exchange), else one per provider here. */
  suggestedModels(): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const state = await openState(options.home, options.storeUrl);
  const shutdown = new ShutdownSteps();
  shutdown.add('state', () => state.close());
  try {
    const logger = options.logger ?? createLogger();
    // Checkpoints reach the witnesses off the request path; gateway.stop's gets a short last try after the trail closes.
    // TEST ONLY: stops gw audit rotate at a step so a test can kill -9 there (docs/audit-rotate.md).
    const testRotatePause = options.env.GW_TEST_ROTATE_PAUSE ? { testRotatePause: options.env.GW_TEST_ROTATE_PAUSE } : {};
    const cosignatures = new CosignatureKeeper((message) => logger.warn({ component: 'audit_witness' }, message));
    const witnesses = new WitnessPusher({
      log: (message) => logger.warn({ component: 'audit_witness' }, message),
      onCosignature: (checkpoint, cosignature, witness) => cosignatures.keep(checkpoint, cosignature, witness),
    });
    shutdown.add('witness drain', async () => { await witnesses.drain(WITNESS_DRAIN_MS); await cosignatures.settle(); });
    let sink: RunningAuditSink | null = null; // started once the metrics exist; drained after the trail closes
    shutdown.add('audit sink drain', async () => sink?.drain(SINK_DRAIN_MS));
    const rotationReaders: WitnessReader[] = []; // filled once the mode can reach the witnesses
    // Read before the trail opens (opening appends); held against the witnesses before any push.
    const witnessStart = await prepareWitnessStart(options.home, { witnessed: state.snapshot().settings.audit_witness !== null || options.sidecar !== undefined, fileTrail: !options.storeUrl });
    const shared = options.storeUrl ? await openSharedStores(options.storeUrl, options.home, (checkpoint) => witnesses.offer(checkpoint), {
      acceptAuditGap: options.acceptAuditGap === true, onNote: (note) => logger.info({ component: 'audit' }, note), ...testRotatePause,
    }) : null;
    if (shared) shutdown.add('shared stores', () => shared.close());
    const audit = shared?.audit ?? await openAuditTrail({
      dir: path.join(options.home, 'audit'), keyPath: path.join(options.home, 'audit.key'),
      fsync: state.snapshot().settings.audit_fsync, acceptGap: options.acceptAuditGap === true,
      onCheckpoint: (checkpoint) => witnesses.offer(checkpoint),
      onNote: (note) => logger.info({ component: 'audit' }, note), ...testRotatePause,
    });
    shutdown.add('audit trail', () => audit.close());
    cosignatures.storeIn(shared ? (stored) => shared.keepCosignature(stored) : fileCosignatureSink(options.home));
    // The mock answers in-process behind the same client every provider call goes through.
    const upstream = withInProcessProviders(createUpstreamClient(options.upstreamTimeouts), answerMockCall);
    shutdown.add('upstream client', () => upstream.close());
    const counters = options.redisUrl ? await openSharedCounters(options.redisUrl, state, logger) : null;
    if (counters) shutdown.add('shared counters', () => counters.close());
    // Made before the mode: the console's budget status reads the counter calls are admitted with.
    const spend = createSpendServices({ overrides: () => state.snapshot().prices ?? [], now: () => new Date(), ...(counters ? { counter: counters.spendCounter } : {}) });
    const mode = await prepareMode({
      home: options.home, env: options.env, state, audit, logger,
      ...(options.sidecar ? { sidecar: options.sidecar } : {}), ...(counters ? { hubLimits: counters.hubLimits } : {}),
      trail: shared?.trail ?? createFileTrailReader(path.join(options.home, 'audit', 'audit.jsonl')),
      ...(options.adminCommands ? { adminCommands: options.adminCommands(state) } : {}),
      ...(audit.rotate ? { rotateAudit: ({ acceptGap }) => rotateUnderWitness(audit, () => audit.rotate!(), {
        home: options.home, readers: rotationReaders, acceptGap, acceptedBy: 'POST /admin/api/audit/rotate (accept_audit_gap)',
        warn: (message) => logger.warn({ component: 'audit_witness' }, message),
      }) } : {}),
      auditPage: createAuditPageSource({ audit, home: options.home, shared, witnessHealth: () => witnesses.health() }),
      spendCounter: spend.counter,
    });
    shutdown.add('mode', async () => mode.stop());
    const modeUpstream = mode.wrapUpstream(upstream);
    const witnessInput = { setting: state.snapshot().settings.audit_witness, hub: mode.sidecar?.hub ?? null, upstream: modeUpstream, ...(witnessStart.instance ? { instance: witnessStart.instance } : {}) };
    // A rotation holds the file trail against the same witnesses first (on PostgreSQL each boot's chain is checked by verify --store).
    if (witnessStart.local) rotationReaders.push(...readersOf(witnessInput));
    const lacking = new Map<string, SignedCheckpoint[]>(); // closed chains a witness has not heard of (an offline rotation)
    const startSkipped = witnessStart.local && witnessStart.instance ? await holdTrailToWitnesses(witnessInput, {
      home: options.home, instance: witnessStart.instance, local: witnessStart.local, acceptGap: options.acceptAuditGap === true, audit,
      warn: (message) => logger.warn({ component: 'audit_witness' }, message),
      onRead: async (witness, entries) => { lacking.set(witness, await closedCheckpointsLacking(options.home, entries)); },
    }) : [];
    addWitnessTargets(witnesses, witnessInput, lacking);
    const witnessHealth = (): Record<string, HealthComponent> => {
      const health = witnesses.health();
      return health ? { audit_witness: { ...health, ...(startSkipped.length > 0 ? { start_check: startSkipped } : {}) } } : {};
    };
    const providers = createProviderSource(state, options.env, { host: options.host, port: options.port }, mode.providerOptions);
    mode.setCatalog?.(() => representativeModels(providers.current()));
    const resourceIds = shared?.resourceIds ?? await openResourceIdStore(options.home);
    shutdown.add('resource ids', () => resourceIds.close());
    const tracer = await startTracing(options.env, GATEWAY_VERSION);
    if (tracer) shutdown.add('tracing', () => tracer.shutdown());
    // The MCP servers /mcp fronts: connected on first use, re-made when they die.
    const mcp = new UpstreamServers(() => state.snapshot().mcp_servers ?? [], options.env);
    shutdown.add('mcp servers', () => mcp.close());
    const mcpHealth = (): Record<string, HealthComponent> => {
      // /health is open: a server's last error says what went wrong in a line, never a password in a URL.
      const servers = Object.fromEntries(Object.entries(mcp.health()).map(([name, server]) => [name, server.last_error === undefined ? server
        : { ...server, last_error: maskUrlCredentials(server.last_error).slice(0, 200) }]));
      if (Object.keys(servers).length === 0) return {};
      const down = Object.entries(servers).filter(([, server]) => server.status === 'down').map(([name]) => name);
      return { mcp: { status: down.length > 0 ? 'degraded' : 'ok', servers } };
    };
    const services = buildServices({
      state, audit, upstream: modeUpstream, providers: providers.current, logger, resourceIds, tracer,
      modeHealth: () => ({ ...mode.health(), ...witnessHealth(), ...(sink ? { audit_sink: sink.health() } : {}), ...mcpHealth(), ...(counters ? { redis: counters.health() } : {}) }),
      ...(counters ? { limiter: counters.limiter } : {}),
      spend,
      guardrails: { upstream, env: options.env },
    });
    sink = await startAuditSink({ home: options.home, settings: state.snapshot().settings, env: options.env, upstream, registry: services.metrics.registry, logger, ...(options.storeUrl ? { storeUrl: options.storeUrl } : {}) });
    const trail = await openTrailSource(options.home, options.storeUrl, openStoreTrailSource);
    shutdown.add('trail source', () => trail.close());
    if (services.spend) await keepBudgetCounters(trail, state, services.spend, logger);
    const stopSampler = sampleEventLoopQueue(services.metrics.eventLoopQueue);
    shutdown.add('event-loop sampler', async () => stopSampler());
    const tls = options.tls ? { cert: await readFile(options.tls.certFile), key: await readFile(options.tls.keyFile) } : undefined;
    const otlp = startOtlpRelay(options.env, services.metrics);
    if (otlp) shutdown.add('telemetry relay', () => otlp.close());
    const server = await buildServer(services, { tls, ...mode.serverOptions, mcp, otlpRelay: otlp?.relay ?? null, ...(options.remotePeer ? { remotePeer: options.remotePeer } : {}) });
    await server.app.listen({ host: options.host, port: options.port }).catch((error: unknown) => {
      throw new Error(describeListenError(error, options.host, options.port), { cause: error });
    });
    // Only once listening: a start that fails (port in use, bad TLS file) must not use up the
    // one-time printing of the first key. The door sees the new key through the state change.
    // A sidecar's identity comes from its login: no local team or key is made.
    const bootstrap = mode.kind === 'sidecar' ? null : await bootstrapLocalTeam(state);
    mode.start();
    state.watch();
    const stopDrain = startOutboxDrain(state, audit, services.logger, `${hostname()}:${process.pid}`);
    shutdown.add('admin outbox drain', async () => stopDrain());
    const ticker = setInterval(() => server.door.flushRefusals(), 1000);
    ticker.unref();
    const scheme = tls ? 'https' : 'http';
    const address = server.app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const url = `${scheme}://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`;
    // With --port 0 the real port is known only now; a provider pointing at it would loop.
    providers.listenOn({ host: options.host, port });
    for (const warning of providers.current().warnings) services.logger.warn({ warning }, 'provider skipped');
    let stopping: Promise<void> | null = null;
    const stop = () => (stopping ??= stopGateway(server, services, shutdown, ticker, options.drainTimeoutMs ?? 10_000));
    const { providers: inForce, warnings } = providers.current();
    const storage = options.storeUrl
      ? `state and audit in PostgreSQL ${state.file} (this instance's audit chain ${shared?.audit.chainId})${options.redisUrl ? ` · rate limits in Redis ${maskUrlCredentials(options.redisUrl)}` : ''}`
      : `state ${path.join(options.home, 'state.json')} · audit ${path.join(options.home, 'audit', 'audit.jsonl')}${options.redisUrl ? ` · rate limits in Redis ${maskUrlCredentials(options.redisUrl)}` : ''}`;
    const suggestedModels = async (): Promise<string[]> => {
      if (!mode.servedModels) return representativeModels(providers.current());
      for (const deadline = Date.now() + 3_000; Date.now() < deadline && mode.servedModels().length === 0;) await new Promise((resolve) => setTimeout(resolve, 50));
      return mode.servedModels();
    };
    return { url, mode: mode.kind, storage, suggestedModels, bootstrapKey: bootstrap?.key ?? null, providerNames: inForce.map((provider) => provider.name), providerWarnings: [...warnings], services, stop };
  } catch (error) {
    await shutdown.run(() => undefined);
    throw error;
  }
}

async function stopGateway(server: GatewayServer, services: GatewayServices, shutdown: ShutdownSteps, ticker: NodeJS.Timeout, drainTimeoutMs: number): Promise<void> {
  clearInterval(ticker);
  // fastify's close stops accepting, answers 503 on kept-alive sockets and waits for
  // in-flight requests; a connection whose request just finished is closed at once rather
  // than kept alive; past the bound, the remaining connections are cut.
  const closeIdle = setInterval(() => server.app.server.closeIdleConnections(), 100);
  const forceClose = setTimeout(() => server.app.server.closeAllConnections(), drainTimeoutMs);
  await server.app.close();
  clearTimeout(forceClose);
  clearInterval(closeIdle);
  server.door.flushRefusals(true);
  server.door.close();
  await shutdown.run((step, error) => services.logger.error({ step, err: String(error) }, 'shutdown step failed'));
  services.logger.flush();
}
