// Anthropic (tool_use.id) and Bedrock (toolUseId) accept only ^[a-zA-Z0-9_-]+$; other providers
// emit ids such as `functions.Bash:0` or `call.1`. Once such an id reaches Claude Code, every later
// turn carries it and is refused. The mapping is pure so it holds across turns and gw instances
// without state, injective so two ids never collapse into one, and decodable so the provider gets
// its own id back in the tool result.
//   valid id without the prefix → itself
//   anything else               → `gwid_` + base64url(UTF-8 of the id)  (base64url is [A-Za-z0-9_-])
// The two sets are disjoint (only the second starts with `gwid_`), and base64url is injective.
const SAFE = /^[a-zA-Z0-9_-]+$/;
const PREFIX = 'gwid_';

export function toSafeToolId(id: string): string {
  if (SAFE.test(id) && !id.startsWith(PREFIX)) return id;
  return PREFIX + Buffer.from(id, 'utf8').toString('base64url');
}

/** The provider's own id for a mapped one; any other id (including a client's own `gwid_…` that gw never minted) is kept. */
export function fromSafeToolId(id: string): string {
  if (!id.startsWith(PREFIX)) return id;
  const original = Buffer.from(id.slice(PREFIX.length), 'base64url').toString('utf8');
  return toSafeToolId(original) === id ? original : id;
}
