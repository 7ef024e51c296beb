// Which coding-agent session a call belongs to, read from what the client itself sends: one
// reader for session affinity (plan-targets.ts) and the audit record's `session` (lineage,
// docs/sessions.md). What each client really sends (docs/sessions.md has the table):
//   x-gw-session               gw's own header, for any client (wins when present)
//   x-claude-code-session-id   Claude Code
//   session-id                 Codex (session_id / conversation_id in older releases)
//   x-session-id               opencode (x-session-affinity carries the same id)
//   metadata.user_id           Claude Code's body: a JSON string with its session_id
// A value is kept only when it looks like an id: bounded, a plain charset, and not something
// the built-in DLP rules take for a secret (a key pasted into a header never reaches the trail),
// nor something the caller's own resolved rules match (a team's `gw dlp add` rule, issue 36).
import { resolveDlpSettings, type DlpSettings } from '../../dlp/dlp-config.js';
import { scanPlaces } from '../../dlp/scan-places.js';
import { isSessionId } from '../../canonical/session-id.js';

const SESSION_HEADERS = ['x-gw-session', 'x-claude-code-session-id', 'session-id', 'session_id', 'conversation_id', 'x-session-id', 'x-session-affinity'] as const;

export type HeaderBag = Record<string, string | string[] | undefined>;

export interface SessionRead {
  session: string | null;
  /** A session header or field was present but its value was not kept (too long, odd characters, secret-like). */
  ignored: boolean;
  /** The first of the caller's DLP rules that matched a dropped value (its id, never the value), or null. */
  refusedBy: string | null;
}

/**
 * The session of a call: the first valid value in the order above. `dlp`: the caller's rules as
 * resolved for its scope (built-in and custom); a value one of them matches is dropped too.
 */
export function readSession(headers: HeaderBag, body?: unknown, dlp?: DlpSettings | null): SessionRead {
  const read: SessionRead = { session: null, ignored: false, refusedBy: null };
  for (const name of SESSION_HEADERS) {
    const raw = headers[name];
    const text = Array.isArray(raw) ? raw[0] : raw;
    if (text && keeps(read, text, dlp)) return read;
  }
  const fromBody = claudeCodeBodySession(body);
  if (fromBody !== null) keeps(read, fromBody, dlp);
  return read;
}

/** Takes `text` as the session when it passes; else notes why it was dropped. */
function keeps(read: SessionRead, text: string, dlp: DlpSettings | null | undefined): boolean {
  // The caller's rules first, so a refusal names its rule (they hold the built-ins, unless the scope turned one off).
  const rule = ruleMatching(text, dlp);
  if (rule === null && isKeptSessionId(text)) {
    read.session = text;
    return true;
  }
  read.ignored = true;
  read.refusedBy ??= rule;
  return false;
}

/**
 * The id of the first of the caller's rules that matches `text` (whatever its action: a value
 * a rule matches is not an id to keep), or null. A clean value is remembered by the rules'
 * own clean-text cache, so a session's repeated id is scanned once per rule set.
 */
export function ruleMatching(text: string, dlp: DlpSettings | null | undefined): string | null {
  // The common case, a clean id seen before: no scan, nothing allocated (this runs on every call's record).
  if (!dlp || dlp.rules.length === 0 || dlp.cache.hasKey(text)) return null;
  return scanPlaces([{ place: 'header', text }], dlp.rules, dlp.cache).findings[0]?.rule ?? null;
}

/** A session's id repeats on each of its calls: a valid one is checked once (bounded: cleared when full). */
const valid = new Set<string>();
const VALID_LIMIT = 1024;

/** A session id (canonical/session-id.ts) that the built-in DLP rules do not take for a secret. */
function isKeptSessionId(text: string): boolean {
  if (valid.has(text)) return true;
  if (!isSessionId(text) || looksLikeSecret(text)) return false;
  if (valid.size >= VALID_LIMIT) valid.clear();
  valid.add(text);
  return true;
}

let builtIns: ReturnType<typeof resolveDlpSettings> | null = null;

/** The built-in DLP rules at their defaults (the same check the record stage uses on a URL). */
function looksLikeSecret(text: string): boolean {
  builtIns ??= resolveDlpSettings([], ['*']);
  return scanPlaces([{ place: 'header', text }], builtIns.rules, builtIns.cache).findings.length > 0;
}

/** Claude Code's `metadata.user_id`: a JSON string (`{"device_id":…,"session_id":…}`) in current releases. */
function claudeCodeBodySession(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Buffer.isBuffer(body)) return null;
  const metadata = (body as { metadata?: unknown }).metadata;
  const userId = typeof metadata === 'object' && metadata !== null ? (metadata as { user_id?: unknown }).user_id : undefined;
  if (typeof userId !== 'string' || !userId.startsWith('{') || !userId.includes('"session_id"')) return null;
  try {
    const session = (JSON.parse(userId) as { session_id?: unknown }).session_id;
    return typeof session === 'string' && session !== '' ? session : null;
  } catch {
    return null;
  }
}
