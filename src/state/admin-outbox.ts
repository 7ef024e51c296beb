// Admin changes made with the CLI on the state itself (gw keys create, gw people remove,
// gw settings set …) become audit records through an outbox kept in the state: the CLI's
// update writes the change and its outbox entry together, so neither exists without the
// other, and a running gw (or the next one to start) moves each entry into its trail as an
// `admin.change` record, then removes it. The entry says who (the OS user and host), which
// command, and what changed, by id or name only: never a key, token, secret or hash.
import { randomBase62 } from './base62.js';
import type { AdminOutboxEntry, StateData } from './schema.js';

export type { AdminOutboxEntry };


type Item = Record<string, unknown>;

/** What identifies an item of each list in a record; fields never recorded stay out of the comparison's output. */
const IDENTITIES: Record<string, (item: Item) => string> = {
  teams: (item) => String(item.name),
  keys: (item) => String(item.id),
  people: (item) => String(item.email),
  tokens: (item) => String(item.id),
  device_codes: (item) => `${String(item.user_code).slice(0, 4)}-${String(item.user_code).slice(4)}`,
  live_keys: (item) => `${String(item.team)}/${String(item.key_id)}`,
  providers: (item) => String(item.name),
  policies: (item) => String(item.scope),
  dlp: (item) => String(item.scope),
  routes: (item) => String(item.name),
  admin_tokens: (item) => String(item.id),
  prices: (item) => `${String(item.provider)}/${String(item.model)}`,
  budgets: (item) => String(item.scope ?? item.id),
  mcp_servers: (item) => String(item.name),
  claude_settings: (item) => String(item.scope),
  guardrails: (item) => String(item.name),
};

/** Parts whose changed items are named with what they became: a device login's decision and its person. */
const OUTCOMES: Record<string, (item: Item) => string> = {
  device_codes: (item) => `${IDENTITIES.device_codes!(item)} ${String(item.status)}${typeof item.person === 'string' ? ` ${item.person}` : ''}`,
};

// Settings whose values are safe to name in a record (secret ones are env: references, still left out).
const QUIET_SETTINGS = new Set(['oidc_client_secret']);

function compareList(before: readonly Item[], after: readonly Item[], identity: (item: Item) => string, outcome?: (item: Item) => string): AdminOutboxEntry['changes'][string] {
  const was = new Map(before.map((item) => [identity(item), JSON.stringify(item)]));
  const now = new Map(after.map((item) => [identity(item), JSON.stringify(item)]));
  const added = [...now.keys()].filter((id) => !was.has(id));
  const removed = [...was.keys()].filter((id) => !now.has(id));
  const changedIds = [...now.keys()].filter((id) => was.has(id) && was.get(id) !== now.get(id));
  const changed = outcome ? after.filter((item) => changedIds.includes(identity(item))).map(outcome) : changedIds;
  return { ...(added.length ? { added } : {}), ...(removed.length ? { removed } : {}), ...(changed.length ? { changed } : {}) };
}

/** An object's own fields by name: the parts and settings are compared by the names in the tables above. */
function fieldsOf(value: object): Map<string, unknown> {
  return new Map<string, unknown>(Object.entries(value));
}

function itemsOf(value: unknown): Item[] {
  return Array.isArray(value) ? value.filter((item): item is Item => typeof item === 'object' && item !== null) : [];
}

/** The ids and names that differ between two states, per part; empty when nothing an admin changed did. */
export function describeStateChange(before: StateData, after: StateData): AdminOutboxEntry['changes'] {
  const changes: AdminOutboxEntry['changes'] = {};
  const was = fieldsOf(before);
  const now = fieldsOf(after);
  for (const [part, identity] of Object.entries(IDENTITIES)) {
    const diff = compareList(itemsOf(was.get(part)), itemsOf(now.get(part)), identity, OUTCOMES[part]);
    if (Object.keys(diff).length > 0) changes[part] = diff;
  }
  const settingsWere = fieldsOf(before.settings);
  const settingsNow = fieldsOf(after.settings);
  const settings = [...settingsNow.keys()].filter((name) => JSON.stringify(settingsWere.get(name)) !== JSON.stringify(settingsNow.get(name)));
  if (settings.length > 0) {
    changes.settings = { changed: settings.map((name) => (QUIET_SETTINGS.has(name) ? name : `${name}=${JSON.stringify(settingsNow.get(name))}`)) };
  }
  if (JSON.stringify(before.aliases) !== JSON.stringify(after.aliases)) changes.aliases = { changed: Object.keys(after.aliases) };
  return changes;
}

export function addOutboxEntry(draft: StateData, entry: Omit<AdminOutboxEntry, 'id'>): void {
  (draft.admin_outbox ??= []).push({ id: `chg_${randomBase62(12)}`, ...entry });
}

const CLAIM_LEASE_MS = 60_000;

/** In-update: the entries this gw may move now (unclaimed, or claimed by a gw that stopped a minute ago), marked as its own. */
export function claimOutbox(draft: StateData, claimant: string, now: Date): AdminOutboxEntry[] {
  const claimed: AdminOutboxEntry[] = [];
  for (const entry of draft.admin_outbox ?? []) {
    const stale = entry.claimed_at === undefined || now.getTime() - Date.parse(entry.claimed_at) > CLAIM_LEASE_MS;
    if (entry.claimed_by !== undefined && entry.claimed_by !== claimant && !stale) continue;
    entry.claimed_by = claimant;
    entry.claimed_at = now.toISOString();
    claimed.push({ ...entry });
  }
  return claimed;
}

export function removeOutboxEntries(draft: StateData, ids: ReadonlySet<string>): void {
  if (!draft.admin_outbox) return;
  draft.admin_outbox = draft.admin_outbox.filter((entry) => !ids.has(entry.id));
  if (draft.admin_outbox.length === 0) delete draft.admin_outbox;
}
