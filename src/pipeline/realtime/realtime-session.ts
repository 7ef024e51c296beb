// A realtime WebSocket handshake through the corridor, after the door admitted the
// caller: decode (`?model=`) → govern (the same governRequest as HTTP calls: BYOK,
// policy with operation `realtime`, rate limits, shadow mode; the DLP settings it
// returns are applied to each event later) → plan targets (the same planTargets:
// routing rules, aliases, well-known names, `deny_providers`) → attempt (the same
// attemptTargets: a provider that cannot be reached, a 429 or 5xx moves on to the next
// target). The caller (src/server/realtime-proxy.ts) answers the client's handshake
// only once this settled, so a refusal keeps its real status.
import type { IncomingHttpHeaders } from 'node:http';
import type { Identity } from '../../auth/authenticate.js';
import { GatewayError } from '../../errors.js';
import type { CancelSignal } from '../../upstream/cancel-signal.js';
import { openUpstreamWebSocket, type UpstreamSocketOpening } from '../../upstream/upstream-websocket.js';
import { attemptTargets } from '../attempt/attempt-targets.js';
import { holdBudget } from '../plan/hold-budget.js';
import type { GatewayServices } from '../gateway-services.js';
import { governRequest, type Governed } from '../govern/govern-request.js';
import type { PipelineRequest } from '../pipeline-types.js';
import { planTargets, type TargetAttempt } from '../plan/plan-targets.js';
import type { InboundCall } from '../decode/read-inbound-call.js';
import { buildRealtimeTarget, readRealtimeModel, requireRealtimeProvider, type RealtimeTarget } from './realtime-target.js';
import type { RequestTrace } from '../request-trace.js';
import { offers } from '../decode/resource-routes.js';
import type { RouteEntry } from '../route-table.js';

export interface RealtimeHandshake {
  id: string;
  route: RouteEntry;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  identity: Identity;
  /** Aborted when the client's socket closes before the handshake is answered. */
  signal: CancelSignal;
}

type OpenedSocket = Extract<UpstreamSocketOpening, { ok: true }>['socket'];

/** The provider's answer to the upgrade: accepted (101, with its socket) or refused with its own status and body. */
export type RealtimeConnection =
  | { status: 101; socket: OpenedSocket; target: RealtimeTarget }
  | { status: number; socket: null; target: RealtimeTarget; headers: IncomingHttpHeaders; body: Buffer };

export interface RealtimeSession {
  governed: Governed;
  connection: RealtimeConnection;
}

/** Throws a GatewayError for every refusal (policy, limits, routing, no provider reachable); `trace` holds what was learned either way. */
export async function openRealtimeSession(handshake: RealtimeHandshake, services: GatewayServices, trace: RequestTrace, connectTimeoutMs: number): Promise<RealtimeSession> {
  const model = readRealtimeModel(handshake.query);
  trace.noteModel(model);
  const request: PipelineRequest = {
    id: handshake.id, method: 'GET', route: handshake.route, dialect: handshake.route.dialect, params: {}, query: handshake.query,
    headers: handshake.headers, body: null, rawBody: null, identity: handshake.identity, signal: handshake.signal,
  };
  const inbound: InboundCall = { dialect: 'openai', operation: 'realtime', model, stream: true };
  const governed = await governRequest(request, inbound, services, trace);
  const attempts = realtimeAttempts(planTargets(inbound, request, services, governed), services);
  // Budgets hold a session like a call (one response's worst case; a spent hard budget refuses the
  // handshake); the close settles the hold to what the session cost (realtime-spend.ts).
  await holdBudget(request, attempts, services, trace);
  const connection = await attemptTargets(attempts, request, trace, async (target) => {
    const realtime = buildRealtimeTarget(target, model, handshake.query, handshake.headers);
    // Through the upstream client, so a sidecar's hub wrapper adds its credential as it does to HTTP calls.
    const opening = await (services.upstream.openWebSocket ?? openUpstreamWebSocket)(realtime.url, realtime.headers, realtime.protocols, connectTimeoutMs);
    if (opening.ok) return { status: 101 as const, socket: opening.socket, target: realtime, discard: () => opening.socket.terminate() };
    if (opening.status === null) throw new GatewayError('GW_ERR_UPSTREAM_UNREACHABLE', { message: `The provider could not be reached (${opening.failure}).` });
    return { status: opening.status, socket: null, target: realtime, headers: opening.headers, body: opening.body, retryAfter: headerText(opening.headers['retry-after']), discard: () => {} };
  });
  // The client may have gone while the provider accepted: nobody would ever read this socket.
  if (handshake.signal.aborted && connection.socket) connection.socket.terminate();
  return { governed, connection };
}

/** A session that never bridged (refused by gw or the provider, or its client gone first) ran nothing: its hold is released. */
export function releaseRealtimeHold(trace: RequestTrace): void {
  void trace.budget?.settle(0).catch(() => { /* the counter's own error path logs; nothing was spent */ });
}

/** Only targets whose provider has a realtime endpoint; none → the refusal names the providers that do. */
function realtimeAttempts(attempts: TargetAttempt[], services: GatewayServices): TargetAttempt[] {
  const { providers } = services.providers();
  const able = attempts.filter((attempt) => offers(attempt.target.provider, 'realtime'));
  if (able.length === 0) requireRealtimeProvider(attempts[0]!.target.provider, providers);
  return able;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
