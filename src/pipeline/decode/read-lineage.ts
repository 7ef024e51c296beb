// A call's lineage for its audit record: the session it belongs to and the agent that made it
// (docs/sessions.md). Read once, at the record stage, off the headers (and Claude Code's body
// field) the transport kept: nothing extra on the way to the provider. The one place that
// decides what of them a record may carry: a value the caller's DLP rules match (built-in or
// the team's own) is not recorded, only the rule that refused it.
import type { DlpSettings } from '../../dlp/dlp-config.js';
import { readAgent } from './read-agent.js';
import { readSession, ruleMatching, type HeaderBag } from './read-session.js';

export interface Lineage {
  session: string | null;
  agent: string | null;
  /** What the record notes about a value it does not carry (SESSION_IGNORED_WARNING, and the rule that refused it): never the value. */
  warnings: readonly string[];
}

/** The warning a record carries when a session header was dropped. */
const SESSION_IGNORED_WARNING = 'session_id_ignored';

const NO_WARNINGS: readonly string[] = [];

/** `dlp`: the caller's rules as resolved for its scope; null (no caller known) checks the built-ins only. */
export function readLineage(headers: HeaderBag, body: unknown, dlp: DlpSettings | null): Lineage {
  const { session, ignored, refusedBy } = readSession(headers, body, dlp);
  const read = readAgent(headers);
  const agentRule = read === null ? null : ruleMatching(read, dlp);
  if (!ignored && agentRule === null) return { session, agent: read, warnings: NO_WARNINGS };
  const warnings: string[] = [];
  if (ignored) warnings.push(SESSION_IGNORED_WARNING);
  if (refusedBy !== null) warnings.push(`session_id_refused: ${refusedBy}`);
  if (agentRule !== null) warnings.push(`agent_refused: ${agentRule}`);
  return { session, agent: agentRule === null ? read : null, warnings };
}
