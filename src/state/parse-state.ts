// The boundary where state.json becomes a StateData: the file may have been
// edited by hand or written by another gw version, so nothing is trusted.
// Fields this version does not know are kept, so a round trip never drops
// data a newer gw wrote.
import type { StateData, Team, VirtualKeyRecord } from './schema.js';
import { readAliases, readProviderRecord } from './providers.js';
import { readDeviceCode, readLiveKey, readPerson, readToken } from './parse-hub-state.js';
import { readSettings } from './settings.js';
import { readGovernance } from './parse-governance.js';
import { readMcpServers } from './mcp-servers.js';
import { readGuardrails } from './guardrails.js';
import { readClaudeSettings } from './claude-settings-schema.js';
import { StateFileError } from './state-errors.js';
import { readAdminToken } from './admin-tokens.js';
import { isPlainObject as isObject } from '../is-plain-object.js';

type Json = Record<string, unknown>;

export function parseStateText(text: string, file: string): StateData {
  if (text.trim() === '') throw new StateFileError(`state file ${file} is empty: fix or move it away`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const line = lineOfParseError(text);
    throw new StateFileError(`state file ${file} is not valid JSON (line ${line}): fix or move it away`, { cause: error });
  }
  const problem = (message: string) => new StateFileError(`state file ${file} is invalid: ${message}: fix or move it away`);
  if (!isObject(raw)) throw problem('the top level is not an object');
  if (raw.version !== undefined && raw.version !== 1) throw problem(`version ${JSON.stringify(raw.version)} is not supported (expected 1)`);
  const teams = readArray(raw, 'teams', readTeam);
  if (typeof teams === 'string') throw problem(teams);
  const keys = readArray(raw, 'keys', readKey);
  if (typeof keys === 'string') throw problem(keys);
  const settingsRaw = raw.settings ?? {};
  if (!isObject(settingsRaw)) throw problem('settings is not an object');
  const { settings, problem: settingsProblem } = readSettings(settingsRaw);
  if (settingsProblem !== null) throw problem(settingsProblem);
  const providers = readArray(raw, 'providers', readProviderRecord);
  if (typeof providers === 'string') throw problem(providers);
  const aliases = readAliases(raw.aliases);
  if (typeof aliases === 'string') throw problem(aliases);
  const hub = { people: readArray(raw, 'people', readPerson), tokens: readArray(raw, 'tokens', readToken),
    device_codes: readArray(raw, 'device_codes', readDeviceCode), live_keys: readArray(raw, 'live_keys', readLiveKey) };
  const hubProblem = Object.values(hub).find((value): value is string => typeof value === 'string');
  if (hubProblem !== undefined) throw problem(hubProblem);
  const adminTokens = readArray(raw, 'admin_tokens', readAdminToken);
  if (typeof adminTokens === 'string') throw problem(adminTokens);
  const governance = readGovernance(raw);
  if (typeof governance === 'string') throw problem(governance);
  const mcpServers = readMcpServers(raw.mcp_servers);
  if (typeof mcpServers === 'string') throw problem(mcpServers);
  const claudeSettings = readClaudeSettings(raw.claude_settings);
  if (typeof claudeSettings === 'string') throw problem(claudeSettings);
  const guardrails = readGuardrails(raw.guardrails);
  if (typeof guardrails === 'string') throw problem(guardrails);
  return {
    ...raw, ...governance, ...(raw.admin_tokens === undefined ? {} : { admin_tokens: adminTokens }),
    ...(raw.claude_settings === undefined ? {} : { claude_settings: claudeSettings }), ...(raw.guardrails === undefined ? {} : { guardrails }), version: 1, teams, keys,
    settings: { ...settingsRaw, ...settings }, providers, aliases, ...(hub as Pick<StateData, keyof typeof hub>), mcp_servers: mcpServers,
  };
}

function readArray<T>(raw: Json, field: string, readItem: (item: Json) => T | string): T[] | string {
  const value = raw[field] ?? [];
  if (!Array.isArray(value)) return `${field} is not a list`;
  const items: T[] = [];
  for (const [index, item] of value.entries()) {
    const read = isObject(item) ? readItem(item) : 'is not an object';
    if (typeof read === 'string') return `${field}[${index}] ${read}`;
    items.push(read);
  }
  return items;
}

function readTeam(item: Json): Team | string {
  const bad = firstBadField(item, { name: 'string', created_at: 'string' });
  return bad ?? (item as unknown as Team);
}

function readKey(item: Json): VirtualKeyRecord | string {
  const bad = firstBadField(item, {
    id: 'string', team: 'string', name: 'string|null', hash: 'string', hint: 'string',
    created_at: 'string', expires_at: 'string|null', revoked_at: 'string|null',
  });
  if (bad !== null) return bad;
  if (typeof item.hash !== 'string' || !/^[0-9a-f]{64}$/.test(item.hash)) return 'hash is not a hex SHA-256';
  // An unreadable expiry would compare as never expiring, so dates are checked too.
  const badDate = ['created_at', 'expires_at', 'revoked_at'].find((field) => !isDateOrAbsent(item[field]));
  if (badDate !== undefined) return `${badDate} is not a date`;
  return { ...item, name: item.name ?? null, expires_at: item.expires_at ?? null, revoked_at: item.revoked_at ?? null } as VirtualKeyRecord;
}

function firstBadField(item: Json, fields: Record<string, 'string' | 'string|null'>): string | null {
  for (const [field, type] of Object.entries(fields)) {
    const value = item[field];
    if (typeof value === 'string' || (type === 'string|null' && (value === null || value === undefined))) continue;
    return `has no ${field} (${type === 'string' ? 'a string' : 'a string or null'})`;
  }
  return null;
}

function isDateOrAbsent(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && !Number.isNaN(Date.parse(value)));
}

/**
 * V8 does not always say where JSON breaks (short inputs get no position), so
 * find it: a prefix of the text either parses, ends too early, or is already
 * wrong, and "already wrong" holds for every longer prefix, so bisect on it.
 */
function lineOfParseError(text: string): number {
  let good = 0;
  let bad = text.length;
  if (!isWrongBeforeEnd(text)) return text.split('\n').length;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (isWrongBeforeEnd(text.slice(0, middle))) bad = middle;
    else good = middle;
  }
  // The offending character is the last one of the shortest wrong prefix.
  return text.slice(0, bad - 1).split('\n').length;
}

function isWrongBeforeEnd(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return false;
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/end of JSON input/.test(message)) return false;
    const position = /position (\d+)/.exec(message);
    return !(position && Number(position[1]) >= prefix.length);
  }
}
