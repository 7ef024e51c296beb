// The stored shape of Claude Code's managed settings (state.json's `claude_settings`) and its
// check at the file boundary; the commands that change it are in claude-settings.ts.

/** `*` (everyone) or `team:NAME`, like policy scopes. */
export interface StoredClaudeSettings {
  scope: string;
  settings: Record<string, unknown>;
  updated_at: string;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** state.json's `claude_settings`: the list, or a message naming the first bad entry. */
export function readClaudeSettings(value: unknown): StoredClaudeSettings[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return 'claude_settings is not a list';
  const entries: StoredClaudeSettings[] = [];
  for (const [index, item] of value.entries()) {
    if (!isObject(item) || typeof item.scope !== 'string' || !isObject(item.settings) || typeof item.updated_at !== 'string') {
      return `claude_settings[${index}] needs scope, settings (an object) and updated_at`;
    }
    entries.push({ scope: item.scope, settings: item.settings, updated_at: item.updated_at });
  }
  return entries;
}
