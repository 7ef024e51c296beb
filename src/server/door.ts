// The door (fastify onRequest, before any body byte is read): who is calling, is
// the audit trail writable, is the body small enough. A refusal here answers at
// once with `connection: close`, so a 50 MB body from a stranger is never read.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/authenticate.js';
import { buildKeyIndex, type KeyIndex } from '../auth/key-index.js';
import { readCredentials } from '../auth/read-credentials.js';
import { RefusedBurstTracker, originOf } from '../auth/refused-burst.js';
import { GatewayError } from '../errors.js';
import type { GatewayServices } from '../pipeline/gateway-services.js';
import type { StateData } from '../state/schema.js';
import { newRequestState } from './request-state.js';
import { guessFamily, type Family } from '../pipeline/route-table.js';
import { sendError } from './send-error.js';

export interface Door {
  onRequest(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** Closes old refusal windows; call about once a second, and with `all` at shutdown. */
  flushRefusals(all?: boolean): void;
  close(): void;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** `/v1/models` serves Anthropic clients too: they announce themselves with anthropic-version. */
function familyFor(request: FastifyRequest, family: Family): Family {
  if (family === 'openai' && request.headers['anthropic-version'] && /\/models(\/|$|\?)/.test(request.url)) return 'anthropic';
  return family;
}

export function createDoor(services: GatewayServices): Door {
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
    const decision = authenticate(readCredentials(request.raw.rawHeaders), keyIndex, settings, services.now());
    if (!decision.ok) {
      request.gw.refusedAtDoor = true;
      services.metrics.authRefusals.inc({ reason: decision.reason });
      refusals.record(originOf(request.ip), request.url.split('?')[0] ?? '/', decision.reason);
      services.metrics.refusedOriginsTracked.set(refusals.trackedOrigins);
      return sendError(reply, family, decision.error, { closeConnection: hasBody(request) });
    }
    request.gw.identity = decision.identity;
    const audit = services.audit.status();
    if (!audit.ok && settings.audit_failure === 'block') {
      return sendError(reply, family, new GatewayError('GW_ERR_AUDIT_UNAVAILABLE'), { closeConnection: hasBody(request) });
    }
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > settings.body_limit_bytes) {
      const limit = `${settings.body_limit_bytes} bytes`;
      const message = `The request body (${length} bytes) is larger than this gateway accepts (${limit}; setting body_limit_bytes).`;
      return sendError(reply, family, new GatewayError('GW_ERR_REQUEST_TOO_LARGE', { message }), { closeConnection: true });
    }
    return undefined;
  }

  return {
    onRequest,
    flushRefusals: (all = false) => {
      refusals.flush(all);
      services.metrics.refusedOriginsTracked.set(refusals.trackedOrigins);
    },
    close: stopWatching,
  };
}
