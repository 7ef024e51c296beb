// The settings in state.json: one definition each, so the CLI (`gw settings
// get|set`), the loader that validates state.json, and the docs all agree on
// names, accepted values and display.
import { BlockList, isIP } from 'node:net';
import path from 'node:path';
import { DEFAULT_SETTINGS, type Settings, type StateData } from './schema.js';
import { StateInputError, StateRefusedError } from './state-errors.js';
import type { StateUpdater } from './state-updater.js';
import { validateTeamName } from './team-name.js';
import { formatByteSize, parseByteSize } from './byte-size.js';
import { formatRoleGroups, isRoleGroups, parseRoleGroups, verifyRoleGroups } from './role-groups.js';

export type SettingName = keyof Settings;

export interface SettingDefinition<K extends SettingName> {
  name: K;
  description: string;
  /** Parses the CLI text; throws StateInputError naming the setting. */
  parse(text: string): Settings[K];
  /** Whether a value read from state.json is acceptable. */
  check(value: unknown): value is Settings[K];
  /** Display text; always accepted back by parse. */
  format(value: Settings[K]): string;
  /** Checks against the rest of the state; returns why not, or null. */
  verify?(value: Settings[K], state: StateData): string | null;
}

const MIN_BODY_LIMIT = 1024;
// A body is buffered whole before it is decoded; beyond this, memory is the problem.
const MAX_BODY_LIMIT = 1024 * 1024 * 1024;

// Below 1 MiB even an ordinary chat request could not be held; 64 GiB is beyond any host gw runs on.
const MIN_INFLIGHT_LIMIT = 1024 * 1024;
const MAX_INFLIGHT_LIMIT = 64 * 1024 * 1024 * 1024;

export const SETTING_DEFINITIONS: { [K in SettingName]: SettingDefinition<K> } = {
  enforce_auth: {
    name: 'enforce_auth',
    description: 'Require every inference request to carry its own credential (on|off).',
    parse: (text) => parseChoice('enforce_auth', text, { on: true, true: true, off: false, false: false }),
    check: (value): value is boolean => typeof value === 'boolean',
    format: (value) => (value ? 'on' : 'off'),
  },
  default_team: {
    name: 'default_team',
    description: 'Team that serves credential-less requests when enforce_auth is off (a team name, or none).',
    parse: (text) => (text.trim() === 'none' ? null : validateTeamName(text.trim())),
    check: (value): value is string | null => value === null || typeof value === 'string',
    format: (value) => value ?? 'none',
    verify: (value, state) =>
      value === null || state.teams.some((team) => team.name === value)
        ? null
        : `team "${value}" does not exist (see gw teams list)`,
  },
  audit_failure: {
    name: 'audit_failure',
    description: 'When the audit trail cannot be written: block requests, or continue serving them.',
    parse: (text) => parseChoice('audit_failure', text, { block: 'block', continue: 'continue' }),
    check: (value): value is Settings['audit_failure'] => value === 'block' || value === 'continue',
    format: (value) => value,
  },
  limits_when_redis_down: {
    name: 'limits_when_redis_down',
    description: 'With gw serve --redis, when Redis is unreachable: open (serve calls without rate limits) or closed (refuse calls a rate limit applies to).',
    parse: (text) => parseChoice('limits_when_redis_down', text, { open: 'open', closed: 'closed' }),
    check: (value): value is Settings['limits_when_redis_down'] => value === 'open' || value === 'closed',
    format: (value) => value,
  },
  audit_fsync: {
    name: 'audit_fsync',
    description: 'When audit records are flushed to disk: always, interval, or never.',
    parse: (text) => parseChoice('audit_fsync', text, { always: 'always', interval: 'interval', never: 'never' }),
    check: (value): value is Settings['audit_fsync'] => value === 'always' || value === 'interval' || value === 'never',
    format: (value) => value,
  },
  body_limit_bytes: {
    name: 'body_limit_bytes',
    description: 'Largest accepted request body (bytes, or with a unit: 512KiB, 32MiB, 1GiB).',
    parse: (text) => parseBodyLimit(text),
    check: (value): value is number => isIntegerIn(value, MIN_BODY_LIMIT, MAX_BODY_LIMIT),
    format: (value) => formatByteSize(value),
  },
  inflight_body_bytes: {
    name: 'inflight_body_bytes',
    description: 'Request-body bytes held in memory at once, all callers together; beyond it 503 (a size: 512MiB, 2GiB).',
    parse: (text) => parseInflightLimit('inflight_body_bytes', text),
    check: (value): value is number => isIntegerIn(value, MIN_INFLIGHT_LIMIT, MAX_INFLIGHT_LIMIT),
    format: (value) => formatByteSize(value),
  },
  inflight_body_bytes_per_key: {
    name: 'inflight_body_bytes_per_key',
    description: 'Request-body bytes held in memory at once for one credential; beyond it 429 (a size: 128MiB).',
    parse: (text) => parseInflightLimit('inflight_body_bytes_per_key', text),
    check: (value): value is number => isIntegerIn(value, MIN_INFLIGHT_LIMIT, MAX_INFLIGHT_LIMIT),
    format: (value) => formatByteSize(value),
  },
  unscanned_uploads: {
    name: 'unscanned_uploads',
    description: 'Uploads DLP cannot read (audio, images, archives): record them as unscanned, or refuse them (record|refuse).',
    parse: (text) => parseChoice('unscanned_uploads', text, { record: 'record', refuse: 'refuse' }),
    check: (value): value is Settings['unscanned_uploads'] => value === 'record' || value === 'refuse',
    format: (value) => value,
  },
  trusted_proxies: {
    name: 'trusted_proxies',
    description: 'Comma-separated IPs or CIDRs whose X-Forwarded-For is believed (or none).',
    parse: (text) => parseTrustedProxies(text),
    check: (value): value is string[] => Array.isArray(value) && value.every((entry) => typeof entry === 'string' && isAddressOrSubnet(entry)),
    format: (value) => (value.length === 0 ? 'none' : value.join(',')),
  },
  refused_burst_window_seconds: {
    name: 'refused_burst_window_seconds',
    description: 'Seconds a refused origin\'s burst window lasts before its summary is audited (1..3600).',
    parse: (text) => parseInteger('refused_burst_window_seconds', text, 1, 3600),
    check: (value): value is number => isIntegerIn(value, 1, 3600),
    format: (value) => String(value),
  },
  device_login: {
    name: 'device_login',
    description: 'Hub: accept new device logins (gw login) at POST /oauth/device/code (on|off).',
    parse: (text) => parseChoice('device_login', text, { on: true, true: true, off: false, false: false }),
    check: (value): value is boolean => typeof value === 'boolean',
    format: (value) => (value ? 'on' : 'off'),
  },
  public_url: {
    name: 'public_url',
    description: 'Hub: the URL people reach it at, for verification and OIDC redirect URLs (or none: from the request).',
    parse: (text) => parseOptionalUrl('public_url', text),
    check: (value): value is string | null => value === null || (typeof value === 'string' && isHttpUrl(value)),
    format: (value) => value ?? 'none',
  },
  oidc_issuer: {
    name: 'oidc_issuer',
    description: 'Hub: OpenID Connect issuer that approves device logins by email (or none: the hub admin approves).',
    parse: (text) => parseOptionalUrl('oidc_issuer', text),
    check: (value): value is string | null => value === null || (typeof value === 'string' && isHttpUrl(value)),
    format: (value) => value ?? 'none',
  },
  oidc_client_id: {
    name: 'oidc_client_id',
    description: 'Hub: the OpenID Connect client id (or none).',
    parse: (text) => (text.trim() === 'none' ? null : parsePrintable('oidc_client_id', text)),
    check: (value): value is string | null => value === null || typeof value === 'string',
    format: (value) => value ?? 'none',
  },
  oidc_client_secret: {
    name: 'oidc_client_secret',
    description: 'Hub: env:NAME, the variable holding the OpenID Connect client secret (never stored here), or none.',
    parse: (text) => parseEnvReference('oidc_client_secret', text),
    check: (value): value is string | null => value === null || (typeof value === 'string' && ENV_NAME.test(value)),
    format: (value) => value ?? 'none',
  },
  oidc_verifies_email: {
    name: 'oidc_verifies_email',
    description: 'Hub: on only for an OpenID Connect issuer that verifies every address it sends (a company directory); off: an email counts only with email_verified true (on|off).',
    parse: (text) => parseChoice('oidc_verifies_email', text, { on: true, true: true, off: false, false: false }),
    check: (value): value is boolean => typeof value === 'boolean',
    format: (value) => (value ? 'on' : 'off'),
  },
  live_key_rotation_seconds: {
    name: 'live_key_rotation_seconds',
    description: 'Hub: age after which a team\'s live key is rotated; the old one stays valid for an overlap (300..31536000).',
    parse: (text) => parseInteger('live_key_rotation_seconds', text, 300, 31_536_000),
    check: (value): value is number => isIntegerIn(value, 300, 31_536_000),
    format: (value) => String(value),
  },
  personal_token_days: {
    name: 'personal_token_days',
    description: 'Hub: lifetime in days of a personal token issued by device login (1..365).',
    parse: (text) => parseInteger('personal_token_days', text, 1, 365),
    check: (value): value is number => isIntegerIn(value, 1, 365),
    format: (value) => String(value),
  },
  access_token_minutes: {
    name: 'access_token_minutes',
    description: 'Hub: lifetime in minutes of the access token Claude Code\'s own /login gets; it refreshes with a rotating refresh token (1..1440).',
    parse: (text) => parseInteger('access_token_minutes', text, 1, 1440),
    check: (value): value is number => isIntegerIn(value, 1, 1440),
    format: (value) => String(value),
  },
  allow_direct_keys: {
    name: 'allow_direct_keys',
    description: 'Bring your own key: a request with x-gw-direct-key: true uses its own Authorization value as the provider key (on|off).',
    parse: (text) => parseChoice('allow_direct_keys', text, { on: true, true: true, off: false, false: false }),
    check: (value): value is boolean => typeof value === 'boolean',
    format: (value) => (value ? 'on' : 'off'),
  },
  audit_witness: {
    name: 'audit_witness',
    description: 'Also send each signed audit checkpoint to this witness: an http(s) URL, an absolute file path on another volume, or none (read at start).',
    parse: (text) => parseWitness(text),
    check: (value): value is string | null => value === null || (typeof value === 'string' && (isHttpUrl(value) || path.isAbsolute(value))),
    format: (value) => value ?? 'none',
  },
  audit_sink: {
    name: 'audit_sink',
    description: 'Stream the audit trail as OCSF events (JSON lines) to an https:// URL (http:// only to a loopback host), an absolute file path, or none (read at start).',
    parse: (text) => parseAuditSink(text),
    check: (value): value is string | null => value === null || (typeof value === 'string' && isAuditSink(value)),
    format: (value) => value ?? 'none',
  },
  audit_sink_token: {
    name: 'audit_sink_token',
    description: 'env:NAME, the variable in gw serve\'s environment holding the audit sink\'s Bearer token (never stored here), or none.',
    parse: (text) => parseEnvReference('audit_sink_token', text),
    check: (value): value is string | null => value === null || (typeof value === 'string' && ENV_NAME.test(value)),
    format: (value) => value ?? 'none',
  },
  audit_sink_max_backlog_bytes: {
    name: 'audit_sink_max_backlog_bytes',
    description: 'Trail bytes not yet delivered to the audit sink beyond which its /health component fails (a size: 1GiB); records are never dropped.',
    parse: (text) => parseSizeIn('audit_sink_max_backlog_bytes', text, MIN_SINK_BACKLOG, MAX_SINK_BACKLOG),
    check: (value): value is number => isIntegerIn(value, MIN_SINK_BACKLOG, MAX_SINK_BACKLOG),
    format: (value) => formatByteSize(value),
  },
  admin_emails: {
    name: 'admin_emails',
    description: 'Hub: comma-separated emails that may sign in to the console (/ui) through the OIDC provider, or none.',
    parse: (text) => parseEmails(text),
    check: (value): value is string[] => Array.isArray(value) && value.every((entry) => typeof entry === 'string' && EMAIL.test(entry)),
    format: (value) => (value.length === 0 ? 'none' : value.join(',')),
  },
  admin_group: {
    name: 'admin_group',
    description: 'Hub: a value of the OIDC groups claim whose members may sign in to the console (/ui), or none.',
    parse: (text) => (text.trim() === 'none' ? null : parsePrintable('admin_group', text)),
    check: (value): value is string | null => value === null || typeof value === 'string',
    format: (value) => value ?? 'none',
  },
  oidc_group_teams: {
    name: 'oidc_group_teams',
    description: 'Hub: comma-separated GROUP=TEAM pairs: at an OIDC sign-in, the first pair whose group the person has (groups claim) places them in that team, adding them if new (or none).',
    parse: (text) => parseGroupTeams(text),
    check: (value): value is string[] => Array.isArray(value) && value.every((entry) => typeof entry === 'string' && GROUP_TEAM.test(entry)),
    format: (value) => (value.length === 0 ? 'none' : value.join(',')),
  },
  role_groups: {
    name: 'role_groups',
    description: 'Hub: OIDC groups whose members sign in to the console with a narrower role: GROUP=viewer or GROUP=team_admin:TEAM[+TEAM], comma-separated, or none.',
    parse: (text) => parseRoleGroups(text),
    check: isRoleGroups,
    format: formatRoleGroups,
    verify: verifyRoleGroups,
  },
};

const GROUP_TEAM = /^[^\s=,]{1,256}=[a-z0-9_-]{1,64}$/;

function parseGroupTeams(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'none') return [];
  const entries = trimmed.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !GROUP_TEAM.test(entry));
  if (bad === undefined) return entries;
  throw new StateInputError(`invalid value "${bad}" for oidc_group_teams: use GROUP=TEAM pairs separated by commas (engineering=eng,data=ml), or none`);
}

const EMAIL = /^[^\s@,]+@[^\s@,]+$/;

function parseEmails(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'none') return [];
  const entries = trimmed.split(',').map((entry) => entry.trim().toLowerCase());
  const bad = entries.find((entry) => !EMAIL.test(entry));
  if (bad === undefined) return [...new Set(entries)];
  throw new StateInputError(`invalid value "${bad}" for admin_emails: use email addresses separated by commas, or none`);
}

function parseWitness(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === 'none') return null;
  if (isHttpUrl(trimmed)) return trimmed;
  if (path.isAbsolute(trimmed) && !trimmed.includes('\0')) return path.normalize(trimmed);
  throw new StateInputError(`invalid value "${text}" for audit_witness: use an http(s) URL without credentials, an absolute file path, or none`);
}

// The sink reads its backlog from the trail itself, so the bound is about alerting, not memory.
const MIN_SINK_BACKLOG = 1024 * 1024;
const MAX_SINK_BACKLOG = 1024 ** 4;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https:// anywhere; plain http:// only to this machine (a test receiver, a local forwarder): the events name people and calls. */
function isAuditSink(text: string): boolean {
  if (path.isAbsolute(text)) return !text.includes('\0');
  if (!isHttpUrl(text)) return false;
  const url = new URL(text);
  return url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname) || /^127\./.test(url.hostname);
}

function parseAuditSink(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === 'none') return null;
  if (isAuditSink(trimmed)) return path.isAbsolute(trimmed) ? path.normalize(trimmed) : trimmed;
  throw new StateInputError(`invalid value "${text}" for audit_sink: use an https:// URL without credentials (http:// only to a loopback host), an absolute file path, or none`);
}

function parseSizeIn(name: SettingName, text: string, min: number, max: number): number {
  const value = parseByteSize(text);
  if (value !== null && isIntegerIn(value, min, max)) return value;
  throw new StateInputError(`invalid value "${text}" for ${name}: use bytes or a size like 256MiB or 4GiB, from ${formatByteSize(min)} to ${formatByteSize(max)}`);
}

const ENV_NAME = /^env:[A-Za-z_][A-Za-z0-9_]*$/;

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

function parseOptionalUrl(name: SettingName, text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === 'none') return null;
  if (isHttpUrl(trimmed)) return trimmed.replace(/\/+$/, '');
  throw new StateInputError(`invalid value "${text}" for ${name}: use an http(s) URL without credentials, or none`);
}

function parsePrintable(name: SettingName, text: string): string {
  const trimmed = text.trim();
  if (/^[\x21-\x7e]{1,256}$/.test(trimmed)) return trimmed;
  throw new StateInputError(`invalid value "${text}" for ${name}: use 1 to 256 visible ASCII characters`);
}

function parseEnvReference(name: SettingName, text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === 'none') return null;
  if (ENV_NAME.test(trimmed)) return trimmed;
  // A literal secret would sit in state.json and in every backup of it.
  throw new StateInputError(`invalid value for ${name}: use env:NAME (the variable that holds the secret in the hub's environment), or none`);
}

export const SETTING_NAMES = Object.keys(DEFAULT_SETTINGS) as SettingName[];

function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTING_DEFINITIONS, name);
}

/** Throws a StateInputError that lists the valid names. */
export function assertSettingName(name: string): SettingName {
  if (isSettingName(name)) return name;
  throw new StateInputError(`unknown setting "${name}"; valid settings: ${SETTING_NAMES.join(', ')}`);
}

export function formatSetting<K extends SettingName>(name: K, value: Settings[K]): string {
  const definition: SettingDefinition<K> = SETTING_DEFINITIONS[name];
  return definition.format(value);
}

/** Parses, verifies against the current state and stores one setting; returns the stored value. */
export async function setSetting(store: StateUpdater, name: string, text: string): Promise<Settings[SettingName]> {
  return applySetting(store, assertSettingName(name), text);
}

async function applySetting<K extends SettingName>(store: StateUpdater, name: K, text: string): Promise<Settings[K]> {
  const definition: SettingDefinition<K> = SETTING_DEFINITIONS[name];
  const value = definition.parse(text);
  return store.update((draft) => {
    // Verified inside the locked update, so a team removed meanwhile cannot slip through.
    const problem = definition.verify?.(value, draft) ?? null;
    if (problem !== null) throw new StateRefusedError(`cannot set ${name}: ${problem}`);
    draft.settings[name] = value;
    return value;
  });
}

/** Validates settings read from state.json: missing fields take defaults, wrong ones are reported by name. */
export function readSettings(raw: Record<string, unknown>): { settings: Settings; problem: string | null } {
  const settings: Settings = { ...DEFAULT_SETTINGS };
  for (const name of SETTING_NAMES) {
    if (!(name in raw)) continue;
    const problem = copySetting(settings, name, raw[name]);
    if (problem !== null) return { settings, problem };
  }
  return { settings, problem: null };
}

function copySetting<K extends SettingName>(settings: Settings, name: K, value: unknown): string | null {
  const definition: SettingDefinition<K> = SETTING_DEFINITIONS[name];
  if (!definition.check(value)) return `settings.${name} has an invalid value ${JSON.stringify(value)}`;
  settings[name] = value;
  return null;
}

function parseChoice<T>(name: SettingName, text: string, choices: Record<string, T>): T {
  const key = text.trim().toLowerCase();
  if (Object.hasOwn(choices, key)) return choices[key] as T;
  throw new StateInputError(`invalid value "${text}" for ${name}: use ${Object.keys(choices).join(', ')}`);
}

function parseInteger(name: SettingName, text: string, min: number, max: number): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (isIntegerIn(value, min, max)) return value;
  throw new StateInputError(`invalid value "${text}" for ${name}: use a whole number from ${min} to ${max}`);
}

function parseBodyLimit(text: string): number {
  const value = parseByteSize(text);
  if (value !== null && isIntegerIn(value, MIN_BODY_LIMIT, MAX_BODY_LIMIT)) return value;
  throw new StateInputError(
    `invalid value "${text}" for body_limit_bytes: use bytes or a size like 512KiB or 32MiB, from 1KiB to 1GiB`,
  );
}

function parseInflightLimit(name: SettingName, text: string): number {
  const value = parseByteSize(text);
  if (value !== null && isIntegerIn(value, MIN_INFLIGHT_LIMIT, MAX_INFLIGHT_LIMIT)) return value;
  throw new StateInputError(`invalid value "${text}" for ${name}: use bytes or a size like 128MiB or 2GiB, from 1MiB to 64GiB`);
}

function parseTrustedProxies(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'none') return [];
  const entries = trimmed.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !isAddressOrSubnet(entry));
  if (bad === undefined) return entries;
  throw new StateInputError(
    `invalid value "${bad}" for trusted_proxies: use IP addresses or CIDRs like 10.0.0.0/8, separated by commas, or none`,
  );
}

/** `192.0.2.1`, `2001:db8::1`, `10.0.0.0/8` or `2001:db8::/32`. */
export function isAddressOrSubnet(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
  if (!isIntegerIn(bits, 0, family === 4 ? 32 : 128)) return false;
  try {
    // BlockList is what the server will match against; if it refuses the subnet, so do we.
    new BlockList().addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
    return true;
  } catch {
    return false;
  }
}

function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}
