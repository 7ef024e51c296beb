// The admin API's session view (GET /admin/api/sessions, /admin/api/sessions/:id): what the
// console's Sessions page reads. The handlers' bodies; their entries in ADMIN_ROUTES
// (admin-api.ts) hand them the trail and the request. Reads only: nothing is recorded.
import { isSessionId } from '../canonical/session-id.js';
import type { SessionCall } from './session-calls.js';
import type { SessionFilter, SessionSummary } from './session-list.js';
import type { TrailReader } from './trail-reader.js';

/** A bad query parameter: the route answers 400 with the message (admin-api.ts AdminInputError). */
export class SessionQueryError extends Error {}

/** The list's window unless `since` says otherwise: a week, so an idle hub's list is short and cheap. */
const DEFAULT_WINDOW_MS = 7 * 86_400_000;

export async function listSessions(trail: TrailReader, query: URLSearchParams, now: Date): Promise<{ since: string; sessions: SessionSummary[] }> {
  const given = query.get('since');
  if (given !== null && Number.isNaN(Date.parse(given))) throw new SessionQueryError(`since must be a time (ISO 8601, e.g. 2026-11-24 or 2026-11-24T09:00:00Z); got ${given.slice(0, 40)}`);
  // As UTC ISO text: the file trail compares it with each record's ts as text (an offset such as +02:00 would not compare).
  const since = new Date(given === null ? now.getTime() - DEFAULT_WINDOW_MS : Date.parse(given)).toISOString();
  const limit = Math.min(500, Math.max(1, Number(query.get('limit') ?? 100) || 100));
  const filter: SessionFilter = { since };
  for (const name of ['person', 'team'] as const) {
    const value = query.get(name);
    if (value) filter[name] = value;
  }
  return { since, sessions: await trail.sessions(filter, limit) };
}

/** `{ session, calls }` as `gw audit show --session ID --json` prints it; null when the trail has no call of it. */
export async function showSession(trail: TrailReader, id: string): Promise<{ session: string; calls: SessionCall[] } | null> {
  if (!isSessionId(id)) throw new SessionQueryError(`invalid session "${id.slice(0, 40)}": a session id as recorded (letters, digits, . _ : @ + -; at most 128)`);
  const calls = await trail.session(id);
  return calls.length === 0 ? null : { session: id, calls };
}
