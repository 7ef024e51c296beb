// The `code` of a caught value (a Node system error's ENOENT, EEXIST…), read with a check rather than
// a cast: what a catch clause holds is `unknown`, and may be anything that was thrown.
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
