// Byte sizes as people write them: `1048576`, `512KiB`, `32MiB`, `1GiB`, `10MB`.
const UNITS: Record<string, number> = {
  b: 1,
  kb: 1000, mb: 1000 ** 2, gb: 1000 ** 3,
  kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3,
};

/** Returns the size in bytes, or null when the text is not a whole size. */
export function parseByteSize(text: string): number | null {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(text.trim());
  if (!match) return null;
  const unit = UNITS[(match[2] ?? '').toLowerCase() || 'b'];
  if (unit === undefined) return null;
  const value = Number(match[1]) * unit;
  return Number.isSafeInteger(value) ? value : null;
}

/** The largest exact binary unit, so the text parses back to the same number. */
export function formatByteSize(bytes: number): string {
  for (const [unit, size] of [['GiB', 1024 ** 3], ['MiB', 1024 ** 2], ['KiB', 1024]] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}
