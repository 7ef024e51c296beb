// Claude Code's managed settings per team, or for everyone (`gw claude-settings`), served
// to signed-in people at GET /managed/settings (src/hub/managed-settings.ts). Stored as the
// admin wrote them: a JSON object of Claude Code settings (permissions, env, model…);
// never a secret (an admin who puts one in `env` sends it to every laptop of the team).
import { isObject, type StoredClaudeSettings } from './claude-settings-schema.js';
import type { StateData } from './schema.js';
import { StateInputError } from './state-errors.js';
import type { StateStore } from './state-store.js';

/** Stored settings larger than this are refused: they travel to every laptop on every start. */
const MAX_SETTINGS_BYTES = 64 * 1024;

/** The scope a command names: a team (which must exist), or everyone. */
export function claudeSettingsScope(state: StateData, team: string | undefined): string {
  if (team === undefined) return '*';
  if (!state.teams.some((candidate) => candidate.name === team)) throw new StateInputError(`no team "${team}" (see gw teams list)`);
  return `team:${team}`;
}

/** Parses the settings file's text: one JSON object of Claude Code settings. */
export function parseClaudeSettings(text: string): Record<string, unknown> {
  if (Buffer.byteLength(text) > MAX_SETTINGS_BYTES) throw new StateInputError(`the settings file is larger than ${MAX_SETTINGS_BYTES / 1024} KiB`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new StateInputError(`the settings file is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isObject(parsed)) throw new StateInputError('the settings file must hold one JSON object (Claude Code settings, as in managed-settings.json)');
  return parsed;
}

export async function setClaudeSettings(store: StateStore, team: string | undefined, settings: Record<string, unknown>): Promise<StoredClaudeSettings> {
  return store.update((draft) => {
    const scope = claudeSettingsScope(draft, team);
    const entry: StoredClaudeSettings = { scope, settings, updated_at: store.now().toISOString() };
    draft.claude_settings = [...(draft.claude_settings ?? []).filter((candidate) => candidate.scope !== scope), entry];
    return entry;
  });
}

/** Removes a scope's settings; false when it had none. */
export async function clearClaudeSettings(store: StateStore, team: string | undefined): Promise<boolean> {
  return store.update((draft) => {
    const scope = claudeSettingsScope(draft, team);
    const before = draft.claude_settings ?? [];
    draft.claude_settings = before.filter((candidate) => candidate.scope !== scope);
    return draft.claude_settings.length !== before.length;
  });
}

/** What a member of `team` receives: the team's own settings, else everyone's, else none. */
export function claudeSettingsFor(state: StateData, team: string): StoredClaudeSettings | null {
  const entries = state.claude_settings ?? [];
  return entries.find((entry) => entry.scope === `team:${team}`) ?? entries.find((entry) => entry.scope === '*') ?? null;
}
