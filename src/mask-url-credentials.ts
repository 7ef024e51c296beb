// A base URL may carry `user:password@` (some self-hosted proxies take basic
// auth that way). Whatever prints or logs a URL passes it through here first,
// so a password never reaches a terminal, a listing or a log line.

// scheme://userinfo@ — userinfo stops at the first character that cannot be in it.
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@:]*):([^\s/?#@]*)@/gi;

/** Every `scheme://user:password@` in `text` becomes `scheme://user:***@`. */
export function maskUrlCredentials(text: string): string {
  if (!text.includes('@')) return text;
  return text.replace(USERINFO, (_match, scheme: string, user: string) => `${scheme}${user}:***@`);
}

/** The same over every string inside a log object (depth-limited; other values as they are). */
export function maskUrlCredentialsDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskUrlCredentials(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => maskUrlCredentialsDeep(item, depth + 1));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  // Errors and class instances keep their identity; pino serializes them itself.
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  // Copied only from the first member that changes: every request's log line passes here, and
  // almost none holds a URL with a password, so the usual answer is the object itself, unallocated.
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(value);
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index]!;
    const item = (value as Record<string, unknown>)[key];
    const masked = maskUrlCredentialsDeep(item, depth + 1);
    if (out === undefined && masked !== item) {
      out = {};
      for (let earlier = 0; earlier < index; earlier += 1) out[keys[earlier]!] = (value as Record<string, unknown>)[keys[earlier]!];
    }
    if (out !== undefined) out[key] = masked;
  }
  return out ?? value;
}
