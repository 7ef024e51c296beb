// Globs as admins write them for model names: `*` any run of characters
// (slashes included: `openai/*`), `?` one character; everything else literal.
// Compiled to a regex once per pattern (the pattern is escaped, so linear).
const compiled = new Map<string, RegExp>();

function matchGlob(pattern: string, value: string): boolean {
  let regex = compiled.get(pattern);
  if (!regex) {
    const source = pattern.split('').map((character) => (character === '*' ? '.*' : character === '?' ? '.' : character.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
    regex = new RegExp(`^${source}$`, 'i');
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, regex);
  }
  return regex.test(value);
}

export function matchesAny(patterns: readonly string[] | undefined, value: string): boolean {
  return patterns !== undefined && patterns.some((pattern) => matchGlob(pattern, value));
}
