// The one "is this a JSON object" check for values parsed from untrusted JSON: not null, not an array.
// It imports nothing, so every folder may use it (docs/architecture.md: the Base floor).
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
