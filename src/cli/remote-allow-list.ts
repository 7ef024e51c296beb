// What a remote command may take: an allow-list per command of the options an admin token may
// use, and of the forms a value may have. Anything else is refused before the command runs.
//
// Why an allow-list: an admin token must never yield a secret the hub holds (issue 26). The
// hub's environment and files are its secrets' homes, and the CLI names them in many forms
// (--api-key-env, --header-env, --header NAME=env:VAR, a target's key=env:VAR, the setting
// oidc_client_secret=env:VAR, --home, --file, --store…). A deny-list of those misses the next
// option someone adds; here a new option is refused remotely until it is listed.

/** Options each remote command takes; `--help`/`-h` always. A pattern covers a family of options (policy's lists). */
const ALLOWED: Readonly<Record<string, Readonly<Record<string, ReadonlyArray<string | RegExp>>>>> = {
  policy: {
    list: ['--json'],
    // --allow-… and --deny-… lists are globs of names; more of them come with new capabilities.
    set: ['--mode', /^--(allow|deny)-[a-z]+(-[a-z]+)*$/, '--max-tokens', '--rpm', '--tpm'],
    remove: [],
    test: ['--team', '--key', '--model', '--operation', '--provider', '--max-tokens'],
  },
  dlp: {
    list: ['--scope', '--json'], set: ['--scope'], add: ['--pattern', '--action', '--ignore-case', '--scope'],
    remove: ['--scope'], output: ['--scope'], test: ['--team', '--key'],
  },
  routes: { list: ['--json'], add: ['--target', '--retries', '--no-fallback'], remove: [], test: ['--session', '--team', '--key'] },
  providers: { list: ['--json'], add: ['--kind', '--base-url', '--api-key', '--api-version', '--preset'], remove: [], test: ['--timeout'] },
  budgets: {
    list: ['--json'], set: ['--amount', '--period', '--time-zone', '--soft'], remove: ['--period'],
    test: ['--team', '--key', '--person', '--model', '--input-tokens', '--max-tokens'],
  },
  mcp: { list: ['--json'], add: ['--url', '--transport', '--header'], remove: [], test: ['--json'] },
  // A credential goes as its value (an env: reference would name the hub's environment).
  guardrails: { list: ['--json'], add: ['--kind', '--url', '--scope', '--when', '--timeout-ms', '--on-error', '--credential', '--option'], remove: [] },
  prices: {
    list: ['--json'], remove: [],
    set: ['--input', '--output', '--cache-read', '--cache-write', '--cache-write-1h', '--input-audio', '--output-audio', '--per-image', '--per-audio-minute', '--per-million-characters'],
    show: ['--input-tokens', '--output-tokens', '--images', '--size', '--quality', '--audio-seconds', '--characters'],
  },
  settings: { get: ['--json'], set: [] },
  // The settings travel inline (--json): --file would name a file on the hub.
  'claude-settings': { set: ['--team', '--json'], show: ['--team'], clear: ['--team'] },
};

/** Why an option that names something of the hub's is not on the list: the refusal says what to do instead. */
const REASONS: Readonly<Record<string, string>> = {
  '--api-key-env': '--api-key-env names an environment variable of the hub: remotely, give the key itself with --api-key (written once, never shown), or add the provider in the hub\'s shell',
  '--header-env': '--header-env names an environment variable of the hub: remotely, give the value itself with --header NAME=VALUE (written once, never shown), or add the server in the hub\'s shell',
  '--command': 'an MCP server over stdio (--command) runs a program on the hub: add it in the hub\'s shell; remotely, add servers by --url',
  '--env': '--env gives variables to a program on the hub (an MCP server over stdio): add it in the hub\'s shell',
};

/** Options that name a file, a folder or a database on the hub's machine, whatever the command. */
const HUB_PLACES = /^--(home|file|store|hub|tls-[a-z-]+|[a-z-]+-file|[a-z-]+-dir|[a-z-]+-path)$/;

/** Why this remote command cannot run as given, or null: its options and every value are checked. */
export function refuseRemoteArguments(argv: readonly string[]): string | null {
  const [noun = '', verb = ''] = argv;
  const allowed = ALLOWED[noun]?.[verb] ?? [];
  for (const argument of argv.slice(2)) {
    const refusal = argument.startsWith('-') ? refuseOption(argument, noun, verb, allowed) : null;
    if (refusal !== null) return refusal;
    const value = argument.startsWith('--') && argument.includes('=') ? argument.slice(argument.indexOf('=') + 1) : argument.startsWith('-') ? null : argument;
    if (value !== null) {
      const bad = refuseValue(value);
      if (bad !== null) return bad;
    }
  }
  return null;
}

function refuseOption(argument: string, noun: string, verb: string, allowed: ReadonlyArray<string | RegExp>): string | null {
  if (argument === '--help' || argument === '-h') return null;
  if (argument === '--') return '"--" (the end of options) is not taken remotely: give every value as an option or an argument';
  const option = argument.split('=')[0]!;
  if (allowed.some((entry) => (typeof entry === 'string' ? entry === option : entry.test(option)))) return null;
  if (REASONS[option] !== undefined) return REASONS[option];
  if (HUB_PLACES.test(option)) return `${option} names something on the hub's machine: run that command in the hub's shell`;
  const listed = allowed.map((entry) => (typeof entry === 'string' ? entry : '--allow-…/--deny-…')).join(' ');
  return `${option} is not an option "${noun} ${verb}" takes remotely (remote options: ${listed || 'none'}; a value that starts with "-" goes as --option=VALUE)`;
}

/** A value may not point at the hub's environment (`env:NAME`, anywhere in it) or at one of its files (`@file`). */
function refuseValue(value: string): string | null {
  if (/env:/i.test(value)) return 'a value with "env:" names an environment variable of the hub: remotely, give the value itself (written once, never shown), or set the reference in the hub\'s shell';
  if (value.startsWith('@')) return 'a value starting with "@" reads as a file on the hub: remotely, give the value itself';
  if (value.includes('\0')) return 'a value holds a NUL character';
  return null;
}
