// What every hub endpoint is handed: the state store (it writes codes and tokens),
// the hub secret, a clock, the audit trail and the in-memory limits.
import type { AuditFields } from '../audit/record.js';
import type { StateStore } from '../state/state-store.js';
import { createAttemptLimiter, createPollClock, type AttemptLimiter, type PollClock } from './attempt-limiter.js';
import type { HubWitness } from './witness-checkpoints.js';
import type { PendingSignIn } from './oidc-approval.js';

export interface HubContext {
  /** One model per provider this hub serves, told to sidecars at token exchange (for their banners). */
  models?: () => string[];
  store: StateStore;
  secret: Buffer;
  now: () => Date;
  audit: (fields: AuditFields) => void;
  /** The OIDC client secret, resolved from the hub's environment (setting oidc_client_secret = env:NAME). */
  oidcClientSecret: () => string | null;
  fetch: typeof fetch;
  /** device_code hash → when it was last polled (RFC 8628 §3.5 slow_down). */
  lastPoll: PollClock;
  /** Wrong user codes per IP: about 5 per 15 minutes (RFC 8628 §5.1). */
  wrongCodes: AttemptLimiter;
  /** New device codes per IP. */
  newCodes: AttemptLimiter;
  /** OIDC `state` → the sign-in it belongs to (ten minutes, in memory). */
  oidcPending: Map<string, PendingSignIn>;
  /** The witness of its sidecars' audit checkpoints (POST/GET /audit/checkpoints). */
  witness?: HubWitness;
}

/** RFC 8628 §3.2: the client must wait this long between polls. */
export const POLL_INTERVAL_SECONDS = 5;
export const WRONG_CODE_LIMIT = 5;
const WRONG_CODE_WINDOW_MS = 15 * 60_000;

export const NEW_CODE_LIMIT = 30;
export const NEW_CODE_WINDOW_MS = 10 * 60_000;
export { WRONG_CODE_WINDOW_MS };

/** The limits a hub keeps; several instances pass shared ones (src/redis/redis-hub-limits.ts), else each counts its own. */
export type HubLimits = Pick<HubContext, 'lastPoll' | 'wrongCodes' | 'newCodes'>;

export function createHubContext(input: Omit<HubContext, 'lastPoll' | 'wrongCodes' | 'newCodes' | 'oidcPending'>, shared?: HubLimits): HubContext {
  const clock = () => input.now().getTime();
  return {
    ...input,
    oidcPending: new Map(),
    ...(shared ?? {
      lastPoll: createPollClock(),
      wrongCodes: createAttemptLimiter({ max: WRONG_CODE_LIMIT, windowMs: WRONG_CODE_WINDOW_MS, now: clock }),
      newCodes: createAttemptLimiter({ max: NEW_CODE_LIMIT, windowMs: NEW_CODE_WINDOW_MS, now: clock }),
    }),
  };
}
