// The door (fastify onRequest, before any body byte is read): who is calling, is
// the audit trail writable, is the body small enough. A refusal here answers at
// once with `connection: close`, so a 50 MB body from a stranger is never read.
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Identity } from '../auth/authenticate.js';
import { authenticate, refuse, type AuthDecision } from '../auth/authenticate.js';
import { replaceTokenWithLiveKey, type PersonalIdentity } from '../auth/personal-identity.js';
import { buildKeyIndex, type KeyIndex } from '../auth/key-index.js';
import { readCredentials } from '../auth/read-credentials.js';
import { RefusedBurstTracker, originOf } from '../auth/refused-burst.js';
import { GatewayError } from '../errors.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import type { StateData } from '../state/schema.js';
import { newRequestState } from './request-state.js';
import { guessFamily, type Family } from '../pipeline/route-table.js';
import { sendError } from './send-error.js';
import { STREAMED_BODY_LIMIT_BYTES } from './limit-body-size.js';

export interface Door {
  onRequest(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** Closes old refusal windows; call about once a second, and with `all` at shutdown. */
  flushRefusals(all?: boolean): void;
  /** The same checks for a WebSocket upgrade (src/server/realtime-proxy.ts), which never reaches fastify. */
  admitUpgrade(raw: IncomingMessage): Promise<UpgradeAdmission>;
  close(): void;
}

export type UpgradeAdmission = { ok: true; identity: Identity } | { ok: false; error: GatewayError };

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** `/v1/models` serves Anthropic clients too: they announce themselves with anthropic-version. */
function familyFor(request: FastifyRequest, family: Family): Family {
  if (family === 'openai' && request.headers['anthropic-version'] && /\/models(\/|$|\?)/.test(request.url)) return 'anthropic';
  return family;
}

const PERSON_PROOF_HEADER = 'x-gw-on-behalf-of';

/** `people`: how atu- tokens, person proofs and a sidecar's default identity are resolved (hub or sidecar). */
export function createDoor(services: GatewayServices, people: PersonalIdentity | null = null): Door {
  let keyIndex: KeyIndex = buildKeyIndex(services.state.snapshot());
  const stopWatching = services.state.onChange((state: StateData) => { keyIndex = buildKeyIndex(state); });
  const refusals = new RefusedBurstTracker({
    windowMs: services.state.snapshot().settings.refused_burst_window_seconds * 1000,
    now: () => services.now().getTime(),
    emit: (kind, summary) => {
      const { origin, ...data } = summary;
      services.audit.append({ kind, origin, data: { ...data } }).then(
        () => services.metrics.auditRecords.inc({ kind }),
        () => services.metrics.auditWriteErrors.inc(),
      );
    },
  });

  async function onRequest(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const route = request.routeOptions.config.route ?? null;
    const family = familyFor(request, route?.family ?? guessFamily(request.url));
    request.gw = newRequestState(route, family);
    if (!route?.authenticated) return undefined;
    const settings = services.state.snapshot().settings;
    const decision = await identify(request, settings);
    if (!decision.ok) {
      request.gw.refusedAtDoor = true;
      services.metrics.authRefusals.inc({ reason: decision.reason });
      refusals.record(originOf(request.ip), request.url.split('?')[0] ?? '/', decision.reason);
      services.metrics.refusedOriginsTracked.set(refusals.trackedOrigins);
      return sendError(reply, family, decision.error, { closeConnection: hasBody(request) });
    }
    request.gw.identity = decision.identity;
    if (people?.responseHeaders) reply.headers(people.responseHeaders(decision.identity));
    const audit = services.audit.status();
    if (!audit.ok && settings.audit_failure === 'block') {
      return sendError(reply, family, new GatewayError('GW_ERR_AUDIT_UNAVAILABLE'), { closeConnection: hasBody(request) });
    }
    const length = Number(request.headers['content-length'] ?? 0);
    // Streamed uploads are never held in memory, so only the streaming ceiling bounds them.
    const streamed = !route.jsonBody && !/json/i.test(request.headers['content-type'] ?? '');
    const limit = streamed ? STREAMED_BODY_LIMIT_BYTES : settings.body_limit_bytes;
    if (length > limit) {
      const message = `The request body (${length} bytes) is larger than this gateway accepts (${limit} bytes${streamed ? '' : '; setting body_limit_bytes'}).`;
      return sendError(reply, family, new GatewayError('GW_ERR_REQUEST_TOO_LARGE', { message }), { closeConnection: true });
    }
    return undefined;
  }

  /** Personal tokens first (the token is swapped for the team's live key), then keys; a person proof names the person. */
  async function identify(request: FastifyRequest, settings: StateData['settings']): Promise<AuthDecision> {
    const reading = readCredentials(request.raw.rawHeaders);
    if (reading.outcome === 'found' && reading.credential.kind === 'personal-token' && people) {
      const token = reading.credential.value;
      const resolved = await people.resolveToken(token);
      if (!resolved.ok) return refuse(resolved.reason);
      replaceTokenWithLiveKey(request.headers, request.raw.rawHeaders, token, resolved.liveKey);
      return { ok: true, identity: resolved.identity };
    }
    const decision = authenticate(reading, keyIndex, settings, services.now(), people?.defaultIdentity?.() ?? null);
    const proof = request.headers[PERSON_PROOF_HEADER];
    if (!decision.ok || proof === undefined || !people?.resolveProof) return decision;
    const person = typeof proof === 'string' ? people.resolveProof(proof, decision.identity) : null;
    // A forged or stale proof is refused like a bad key: the sidecar re-exchanges and retries.
    if (person === null) return refuse('unknown');
    return { ok: true, identity: { ...decision.identity, person } };
  }

  async function admitUpgrade(raw: IncomingMessage): Promise<UpgradeAdmission> {
    const settings = services.state.snapshot().settings;
    // identify() reads only the raw and parsed headers, which an upgrade request has too.
    const decision = await identify({ raw, headers: raw.headers } as unknown as FastifyRequest, settings);
    if (!decision.ok) {
      services.metrics.authRefusals.inc({ reason: decision.reason });
      refusals.record(originOf(raw.socket.remoteAddress ?? 'unknown'), (raw.url ?? '/').split('?')[0] ?? '/', decision.reason);
      return { ok: false, error: decision.error };
    }
    if (!services.audit.status().ok && settings.audit_failure === 'block') return { ok: false, error: new GatewayError('GW_ERR_AUDIT_UNAVAILABLE') };
    return { ok: true, identity: decision.identity };
  }

  return {
    onRequest,
    admitUpgrade,
    flushRefusals: (all = false) => {
      refusals.flush(all);
      services.metrics.refusedOriginsTracked.set(refusals.trackedOrigins);
    },
    close: stopWatching,
  };
}
