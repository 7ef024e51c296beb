// With --store, the parts several instances must share besides the state itself:
// (and with --redis, the rate-limit and spend-budget counters)
// the audit trail (a chain per boot in PostgreSQL) and the resource-id memory. One
// pool serves both; the state store holds its own (it also LISTENs).
import { loadOrCreateSigningKey, writePublicKey } from '../audit/signing-key.js';
import type { SignedCheckpoint } from '../audit/checkpoint.js';
import type { AuditTrail } from '../audit/audit-trail.js';
import { databaseAccessError, openDatabase } from '../postgres/database.js';
import { openPostgresAuditTrail } from '../postgres/postgres-audit-trail.js';
import { recoverStoreRotation, storeRotationEvidence } from '../postgres/postgres-audit-rotation.js';
import { openPostgresResourceIds } from '../postgres/postgres-resource-ids.js';
import { createPostgresTrailReader } from '../postgres/postgres-trail-reader.js';
import { AuditGapError } from '../audit/audit-trail.js';
import { checkKeyTrustedAtStart, trustKeyAfterGap } from '../audit/trust-at-start.js';
import { verifyChains, type ChainTrust, type ChainVerdict } from '../postgres/postgres-audit-chains.js';
import { insertCosignature } from '../postgres/postgres-audit-cosignatures.js';
import type { StoredCosignature } from '../audit/cosignature.js';
import type { TrailReader } from '../admin/trail-reader.js';
import type { ResourceIdStore } from '../state/resource-ids.js';
import type { StateStore } from '../state/state-store.js';
import type { Logger } from '../logger.js';
import type { HealthComponent } from '../metrics/health-component.js';
import type { Limiter } from '../policy/rate-limiter.js';
import type { HubLimits } from '../hub/hub-context.js';
import type { SpendCounter } from '../spend/spend-counter.js';

export interface SharedStores {
  /** This instance's chain of the PostgreSQL trail. */
  audit: AuditTrail & { chainId: string };
  resourceIds: ResourceIdStore;
  /** Request records of every chain, for the admin console. */
  trail: TrailReader;
  /** Verifies every chain (the console's Verify button) under these trusted keys. */
  verifyChains(trust: ChainTrust): Promise<ChainVerdict[]>;
  /** Keeps a witness's cosignature of one of this chain's checkpoints (gw_audit_cosignatures). */
  keepCosignature(stored: StoredCosignature): Promise<void>;
  close(): Promise<void>;
}

export interface SharedStoreStart {
  /** gw serve --accept-audit-gap: start under a signing key the trust file does not hold, recording it. */
  acceptAuditGap?: boolean;
  onNote?: (note: string) => void;
  /** TEST ONLY (GW_TEST_ROTATE_PAUSE): the rotation step to stop at. */
  testRotatePause?: string;
}

export async function openSharedStores(url: string, home: string, onCheckpoint?: (checkpoint: SignedCheckpoint) => void, start: SharedStoreStart = {}): Promise<SharedStores> {
  // The key stays in the instance's home: whoever can write the database cannot forge a checkpoint
  // that verifies against this instance's trusted audit.pub (gw audit verify --store).
  const database = openDatabase(url);
  try {
    // A rotation a crash interrupted is finished (or undone) first: the key to load depends on it.
    const recovered = await recoverStoreRotation(database, home);
    if (recovered !== null) start.onNote?.(recovered);
    const signingKey = await loadOrCreateSigningKey(home);
    const trust = await checkKeyTrustedAtStart(home, signingKey.publicKey, new Date(), false, await storeRotationEvidence(database));
    if (trust.kind === 'seeded') start.onNote?.(trust.note);
    if (trust.kind === 'untrusted' && !start.acceptAuditGap) throw new AuditGapError({ reason: trust.reason, checkpoint_seq: 0, checkpoint_hash: '', log_seq: 0, log_hash: null }, home);
    await writePublicKey(home, signingKey);
    const audit = await openPostgresAuditTrail({
      database, signingKey, home, ...(onCheckpoint ? { onCheckpoint } : {}), ...(start.testRotatePause ? { testRotatePause: start.testRotatePause } : {}),
    });
    if (trust.kind === 'untrusted') {
      await trustKeyAfterGap(home, signingKey.publicKey, new Date());
      await audit.append({ kind: 'audit.gap', data: { reason: trust.reason, accepted_by: 'gw serve --accept-audit-gap' } });
    }
    const resourceIds = await openPostgresResourceIds(database, () => undefined);
    return { audit, resourceIds, trail: createPostgresTrailReader(database), verifyChains: (trust) => verifyChains(database, trust),
      keepCosignature: (stored) => insertCosignature(database, stored), close: () => database.end() };
  } catch (error) {
    await database.end().catch(() => undefined);
    if (error instanceof AuditGapError) throw error;
    throw databaseAccessError(url, error);
  }
}

export interface SharedCounters {
  limiter: Limiter;
  /** Spend budgets' counters (src/redis/redis-spend-counter.ts). */
  spendCounter: SpendCounter;
  hubLimits: HubLimits;
  /** /health: reachable, or which fail mode is in force while it is not (closed refuses limited calls). */
  health(): HealthComponent;
  close(): Promise<void>;
}

/** Rate-limit and login-limit counters in Redis/Valkey; ioredis is loaded only when --redis is given. */
export async function openSharedCounters(url: string, state: StateStore, logger: Logger): Promise<SharedCounters> {
  const [{ connectRedis }, { createRedisLimiter }, { createRedisHubLimits }, { createRedisSpendCounter }] = await Promise.all([
    import('../redis/redis-connection.js'), import('../redis/redis-limiter.js'), import('../redis/redis-hub-limits.js'), import('../redis/redis-spend-counter.js'),
  ]);
  const failMode = () => state.snapshot().settings.limits_when_redis_down;
  let lastLogged = 0;
  const connection = connectRedis(url, (error) => {
    // ioredis reports every reconnection attempt: one line per 10 s is enough to see it.
    if (Date.now() - lastLogged < 10_000) return;
    lastLogged = Date.now();
    logger.error({ err: error.message, limits_when_redis_down: failMode() }, 'redis unreachable: rate limits follow limits_when_redis_down');
  });
  // A frozen Redis raises no error event: the breaker says when it opens and closes.
  connection.breaker.onOpen(() => logger.error({ reason: connection.breaker.problem(), limits_when_redis_down: failMode() }, 'redis not answering: limits and budgets follow limits_when_redis_down until it does'));
  connection.breaker.onClose(() => logger.warn('redis answers again: budget counters are reconciled with the audit trail'));
  const spendCounter = createRedisSpendCounter(connection, failMode);
  return {
    limiter: createRedisLimiter(connection, failMode),
    spendCounter,
    hubLimits: createRedisHubLimits(connection, Date.now),
    health() {
      const health = connection.health();
      if (health.reachable) return { status: 'ok' };
      const mode = failMode();
      return { status: 'degraded', reason: `redis unreachable: ${health.problem ?? 'no answer'}`, limits_when_redis_down: mode, limits: mode === 'open' ? 'not enforced' : 'refusing limited calls' };
    },
    close: async () => {
      spendCounter.close();
      await connection.close();
    },
  };
}
