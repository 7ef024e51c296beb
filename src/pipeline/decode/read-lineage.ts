// A call's lineage for its audit record: the session it belongs to and the agent that made it
// (docs/sessions.md). Read once, at the record stage, off the headers (and Claude Code's body
// field) the transport kept: nothing extra on the way to the provider.
import { readAgent } from './read-agent.js';
import { readSession, type HeaderBag } from './read-session.js';

export interface Lineage {
  session: string | null;
  agent: string | null;
  /** A session header was sent but not kept (docs/sessions.md: bounded, plain characters, no secret). */
  sessionIgnored: boolean;
}

export function readLineage(headers: HeaderBag, body?: unknown): Lineage {
  const { session, ignored } = readSession(headers, body);
  return { session, agent: readAgent(headers), sessionIgnored: ignored };
}

/** The warning a record carries when a session header was dropped. */
export const SESSION_IGNORED_WARNING = 'session_id_ignored';
