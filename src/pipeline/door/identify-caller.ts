// Stage 1, identify (before any body byte is read): who is calling, and can the call be
// recorded. The same for an HTTP request (server/door.ts) and a WebSocket upgrade
// (server/realtime-proxy.ts): it reads headers, never a framework's request. A refused
// credential is counted into auth.refused_burst, not a record of its own.
import type { IncomingHttpHeaders } from 'node:http';
import { authenticate, refuse, type AuthDecision, type Identity, type RefusalReason } from '../../auth/authenticate.js';
import { buildKeyIndex, type KeyIndex } from '../../auth/key-index.js';
import { removeCredential, type PersonalIdentity } from '../../auth/personal-identity.js';
import { readCredentials } from '../../auth/read-credentials.js';
import { originOf, type RefusedKey } from '../../auth/refused-burst.js';
import { keyHint } from '../../state/virtual-keys.js';
import { pathToRecord } from '../../dlp/url-carries-secret.js';
import { GatewayError } from '../../errors.js';
import type { StateData } from '../../state/schema.js';
import type { GatewayServices } from '../gateway-services.js';
import { newBurstTracker } from './refusal-bursts.js';

/** What identify reads of a request or an upgrade: its headers (a person's credential is removed from them), path and caller's address. */
export interface CallerRequest {
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  url: string;
  origin: string;
}

/** `credential`: the credential was refused (counted into auth.refused_burst); else the call cannot be recorded now. */
export type Admission = { ok: true; identity: Identity } | { ok: false; error: GatewayError; refused: 'credential' | 'unrecordable' };

export interface CallerIdentifier {
  admit(request: CallerRequest, settings: StateData['settings']): Promise<Admission>;
  /** Closes old refusal windows; call about once a second, and with `all` at shutdown. */
  flush(all: boolean): void;
  close(): void;
}

// A shared store confirms every second that the cached state is current; past this, it may not be.
const STALE_STATE_MS = 3_000;
const REFRESH_GAP_MS = 100;

/** `people`: how atu- tokens, gws- session credentials and a sidecar's default identity are resolved (hub or sidecar). */
export function createCallerIdentifier(services: GatewayServices, people: PersonalIdentity | null): CallerIdentifier {
  let keyIndex: KeyIndex = buildKeyIndex(services.state.snapshot());
  const stopWatching = services.state.onChange((state: StateData) => { keyIndex = buildKeyIndex(state); });
  const refusals = newBurstTracker<RefusalReason>(services, { first: 'auth.refused', burst: 'auth.refused_burst' });

  /**
   * A credential made a moment ago (by the CLI, or through another instance of a hub) may not be in
   * this copy of the state yet: before refusing an unknown one, look for a change once. At most
   * one such look every REFRESH_GAP_MS, so a flood of made-up keys costs no more than the poll.
   */
  let lastRefresh = 0;
  function mayRefresh(decision: AuthDecision): boolean {
    if (decision.ok || decision.reason !== 'unknown' || !services.state.refresh) return false;
    const now = Date.now();
    if (now - lastRefresh < REFRESH_GAP_MS) return false;
    lastRefresh = now;
    return true;
  }

  /** A person's credential (atu- token, or a hub's gws- session credential) is resolved and removed from the request; then keys. */
  async function identifyOnce(request: CallerRequest, settings: StateData['settings']): Promise<AuthDecision> {
    const reading = readCredentials(request.rawHeaders);
    if (reading.outcome === 'found' && people && reading.credential.kind !== 'virtual-key') {
      const { kind, value } = reading.credential;
      const resolved = kind === 'personal-token' ? await people.resolveToken(value) : await people.resolveSession?.(value);
      if (!resolved?.ok) return refuse(resolved?.reason ?? 'unknown');
      removeCredential(request.headers, request.rawHeaders, value);
      return { ok: true, identity: resolved.identity };
    }
    return authenticate(reading, keyIndex, settings, services.now(), people?.defaultIdentity?.() ?? null);
  }

  // The refresh is awaited inline (not in a helper), so a known key costs one await, as before.
  async function admit(request: CallerRequest, settings: StateData['settings']): Promise<Admission> {
    let decision = await identifyOnce(request, settings);
    if (mayRefresh(decision)) {
      await services.state.refresh?.();
      decision = await identifyOnce(request, settings);
    }
    if (!decision.ok) {
      services.metrics.authRefusals.inc({ reason: decision.reason });
      refusals.record(originOf(request.origin), pathToRecord(request.url), decision.reason, refusedKeyOf(request.rawHeaders, keyIndex));
      services.metrics.refusedOriginsTracked.set(refusals.trackedOrigins);
      return { ok: false, error: decision.error, refused: 'credential' };
    }
    const unavailable = refuseUnrecordable(services, settings);
    if (unavailable) return { ok: false, error: unavailable, refused: 'unrecordable' };
    return { ok: true, identity: decision.identity };
  }

  return {
    admit,
    flush: (all) => {
      refusals.flush(all);
      services.metrics.refusedOriginsTracked.set(refusals.trackedOrigins);
    },
    close: stopWatching,
  };
}

/** The refused gw key's hint (never the key) and its id when gw knows it (revoked, expired), for the explorer. */
function refusedKeyOf(rawHeaders: string[], keys: KeyIndex): RefusedKey | null {
  const reading = readCredentials(rawHeaders);
  if (reading.outcome !== 'found' || reading.credential.kind !== 'virtual-key') return null;
  const lookup = keys.find(reading.credential.value);
  return { hint: keyHint(reading.credential.value), id: 'record' in lookup ? lookup.record.id : null };
}

/**
 * With audit_failure=block, a call is refused when it could not be recorded, or when a shared
 * store has not confirmed for STALE_STATE_MS that this instance's copy is current (a revocation
 * made through another instance might not be in it).
 */
export function refuseUnrecordable(services: GatewayServices, settings: StateData['settings']): GatewayError | null {
  if (settings.audit_failure !== 'block') return null;
  if (!services.audit.status().ok) return new GatewayError('GW_ERR_AUDIT_UNAVAILABLE');
  const store = services.state.health?.();
  if (store?.synced_ms_ago !== undefined && store.synced_ms_ago > STALE_STATE_MS) return new GatewayError('GW_ERR_STATE_UNAVAILABLE');
  return null;
}
