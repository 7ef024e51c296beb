// Providers and aliases in state.json: validation at the file boundary, and the
// writes behind `gw providers add|remove`. A key given as `env:NAME` is stored as
// that reference, never as the value.
import type { ProviderKindName, ProviderRecord, StateData } from './schema.js';
import { StateInputError, StateRefusedError } from './state-errors.js';
import type { StateUpdater } from './state-updater.js';
import { hostOf } from './bound-host.js';

type Json = Record<string, unknown>;

// A Record, not a list, so adding a ProviderKindName without updating this fails to compile.
const KINDS: Record<ProviderKindName, true> = {
  openai: true, anthropic: true, gemini: true, azure: true, 'openai-compatible': true, gateway: true, mock: true,
  cohere: true, jina: true, voyage: true, mistral: true, bedrock: true, foundry: true, vertex: true,
};

// Names end up in `name/model`, URLs-free logs and metric labels: keep them plain.
const PROVIDER_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;
const ENV_REFERENCE = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;

function isProviderKindName(value: unknown): value is ProviderKindName {
  return typeof value === 'string' && Object.hasOwn(KINDS, value);
}

export function validateProviderName(name: string): string {
  if (!PROVIDER_NAME.test(name)) {
    throw new StateInputError(`invalid provider name "${name}": use lowercase letters, digits, ".", "_" and "-" (at most 63)`);
  }
  if (name === 'mock') throw new StateInputError('"mock" is the built-in provider and is always configured; pick another name');
  return name;
}

/** `env:NAME` → NAME; anything else (a literal key) → null. */
export function readEnvReference(apiKey: string): string | null {
  return ENV_REFERENCE.exec(apiKey)?.[1] ?? null;
}

/** state.json's `providers[i]`: why it is unusable, or the record. */
export function readProviderRecord(item: Json): ProviderRecord | string {
  if (typeof item.name !== 'string' || !PROVIDER_NAME.test(item.name)) return 'has no valid name';
  if (!isProviderKindName(item.kind) || item.kind === 'mock') return `kind ${JSON.stringify(item.kind)} is not a provider kind`;
  if (typeof item.base_url !== 'string') return 'has no base_url (a string)';
  if (item.api_key !== null && item.api_key !== undefined && typeof item.api_key !== 'string') return 'api_key is not a string or null';
  for (const field of ['api_version', 'preset', 'key_host'] as const) {
    if (item[field] !== undefined && typeof item[field] !== 'string') return `${field} is not a string`;
  }
  if (item.takes !== undefined && !(Array.isArray(item.takes) && item.takes.every((label) => typeof label === 'string'))) return 'takes is not a list of strings';
  return { ...item, api_key: item.api_key ?? null } as ProviderRecord;
}

/** state.json's `aliases`: why it is unusable, or the map. */
export function readAliases(value: unknown): Record<string, string> | string {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'aliases is not an object';
  for (const [alias, target] of Object.entries(value)) {
    if (typeof target !== 'string' || !/^[^/]+\/.+$/.test(target)) return `aliases.${alias} is not "provider/model"`;
  }
  return { ...(value as Record<string, string>) };
}

export interface AddedProvider {
  record: ProviderRecord;
  /** Routing targets of this provider whose own key was dropped: it was set for another host. */
  droppedRouteKeys: string[];
}

/**
 * Adds a provider. With `dropForeignRouteKeys` (an admin's remote change), the routing targets
 * naming this provider keep their own key only if it was set for this provider's host: a key
 * the hub holds must not follow a provider re-added at another host (bound-host.ts).
 */
export async function addProviderRecord(store: StateUpdater, record: ProviderRecord, options: { dropForeignRouteKeys?: boolean } = {}): Promise<AddedProvider> {
  validateProviderName(record.name);
  return store.update((draft) => {
    if (draft.providers.some((existing) => existing.name === record.name)) {
      throw new StateRefusedError(`provider "${record.name}" already exists: gw providers remove ${record.name} first`);
    }
    draft.providers.push(record);
    return { record, droppedRouteKeys: options.dropForeignRouteKeys ? dropForeignRouteKeys(draft, record) : [] };
  });
}

function dropForeignRouteKeys(draft: StateData, record: ProviderRecord): string[] {
  const host = hostOf(record.base_url);
  const dropped: string[] = [];
  for (const route of draft.routes ?? []) {
    for (const target of route.targets) {
      if (target.key === undefined || !target.model.startsWith(`${record.name}/`) || (target.key_host !== undefined && target.key_host === host)) continue;
      delete target.key;
      delete target.key_host;
      dropped.push(`route ${route.name} target ${target.model}`);
    }
  }
  return dropped;
}

export async function removeProviderRecord(store: StateUpdater, name: string): Promise<ProviderRecord | null> {
  return store.update((draft) => {
    const index = draft.providers.findIndex((existing) => existing.name === name);
    if (index < 0) return null;
    const [removed] = draft.providers.splice(index, 1);
    return removed ?? null;
  });
}
