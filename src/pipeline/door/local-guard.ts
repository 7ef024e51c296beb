// Stage 2, the local guard, run first on every listener's requests and upgrades alike (the rule
// itself: sidecar/loopback-guard.ts). It reads headers and the socket's address, never a
// framework's request; a refusal is counted into guard.refused_burst, not a record of its own.
import type { IncomingHttpHeaders } from 'node:http';
import { originOf } from '../../auth/refused-burst.js';
import type { PersonalIdentity } from '../../auth/personal-identity.js';
import { VIRTUAL_KEY_PREFIX, readCredentials } from '../../auth/read-credentials.js';
import { pathToRecord } from '../../dlp/url-carries-secret.js';
import { GatewayError } from '../../errors.js';
import { checkLocalRequest, isGuarded, isLoopbackAddress, type LocalRefusal } from '../../sidecar/loopback-guard.js';
import type { GatewayServices } from '../gateway-services.js';
import { KEY_PROTOCOL_PREFIX, readSubprotocols } from './read-subprotocols.js';
import { newBurstTracker } from './refusal-bursts.js';

export interface GuardOptions {
  /** A sidecar: every request and upgrade must pass the local guard, whatever it carries. */
  loopbackOnly?: boolean;
  /** A sidecar started with --allow-remote-sidecar: the non-loopback socket addresses it serves (--allow-remote-peer); none without. */
  remotePeer?: (address: string) => boolean;
}

/** What the guard reads of a request or an upgrade. */
export interface GuardedRequest {
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  url: string;
  /** The connection's own address (a Host header is whatever a non-browser client writes). */
  peer: string;
}

export interface LocalGuard {
  /** The refusal to send, or null. `servesCalls`: the route serves calls (not /health, /metrics or HEAD /); `origin` names the caller in the burst record. */
  check(request: GuardedRequest, servesCalls: boolean, origin: string): GatewayError | null;
  flush(all: boolean): void;
}

type GuardRefusal = Exclude<LocalRefusal, null> | 'remote-peer';

export function createLocalGuard(services: GatewayServices, people: PersonalIdentity | null, options: GuardOptions): LocalGuard {
  const refusals = newBurstTracker<GuardRefusal>(services, { first: 'guard.refused', burst: 'guard.refused_burst' });
  const loopbackOnly = options.loopbackOnly === true;
  const remotePeer = options.remotePeer ?? (() => false);
  /** Read live: `gw settings set default_team …` or enforce_auth changes whom the guard covers. */
  const servesDefaultIdentity = (): boolean => {
    const settings = services.state.snapshot().settings;
    return !settings.enforce_auth && (settings.default_team !== null || (people?.defaultIdentity?.() ?? null) !== null);
  };

  function check(request: GuardedRequest, servesCalls: boolean, origin: string): GatewayError | null {
    if (!isGuarded({ loopbackOnly, servesCalls, servesDefaultIdentity, ownCredential: () => presentsCredential(request) })) return null;
    // A sidecar serves its person by the connection's own address first.
    const refusal: GuardRefusal | null = loopbackOnly && !isLoopbackAddress(request.peer) && !remotePeer(request.peer) ? 'remote-peer' : checkLocalRequest(request.headers);
    if (refusal === null) return null;
    services.metrics.authRefusals.inc({ reason: refusal });
    refusals.record(originOf(origin), pathToRecord(request.url), refusal);
    return guardError(refusal, loopbackOnly);
  }

  return { check, flush: (all) => refusals.flush(all) };
}

/** A gw credential of the call's own: in a header, or (browser WebSockets can send no header) a subprotocol. */
function presentsCredential(request: GuardedRequest): boolean {
  if (readCredentials(request.rawHeaders).outcome !== 'none') return true;
  return readSubprotocols(request.headers).some((protocol) => protocol.startsWith(`${KEY_PROTOCOL_PREFIX}${VIRTUAL_KEY_PREFIX}`));
}

function guardError(refusal: GuardRefusal, sidecar: boolean): GatewayError {
  if (refusal === 'remote-peer') return new GatewayError('GW_ERR_AUTH_REMOTE_PEER');
  const code = refusal === 'foreign-host' ? 'GW_ERR_AUTH_FOREIGN_HOST' : 'GW_ERR_AUTH_CROSS_ORIGIN';
  if (sidecar) return new GatewayError(code);
  // The catalog's message speaks of a sidecar; here the call would have been served on default_team.
  const message = refusal === 'foreign-host'
    ? 'This gateway serves calls without a credential (setting default_team) only when addressed to a loopback name (Host: localhost, 127.0.0.1 or [::1]), to stop DNS rebinding; send your own gw key.'
    : 'This gateway serves calls without a credential (setting default_team) only to same-origin callers, not to web pages of other origins; send your own gw key.';
  return new GatewayError(code, { message });
}
