// The shape of a session id as the audit record keeps it (lineage, docs/sessions.md): bounded and
// a plain charset. The decode stage also drops a value the DLP rules take for a secret
// (pipeline/decode/read-session.ts); the admin API and `gw audit show --session` check a queried id
// against this shape.

/** Long enough for a UUID with a prefix (opencode's `ses_…`), short enough to keep records small. */
const SESSION_MAX_LENGTH = 128;
const SESSION_CHARSET = /^[A-Za-z0-9][A-Za-z0-9._:@+-]*$/;

export function isSessionId(text: string): boolean {
  return text.length <= SESSION_MAX_LENGTH && SESSION_CHARSET.test(text);
}
