// `gw providers add|list|remove|test`: providers in state.json, shown together
// with the ones the environment configures. Keys are never printed: a key is
// shown as `env:VAR`, `set` or `none`.
import { Option, type Command } from 'commander';
import { CliExit, type CliContext } from '../cli-context.js';
import { withStore } from '../state-command.js';
import { maskUrlCredentials } from '../../mask-url-credentials.js';
import { isHttpUrl, readProviderEnvironment } from '../../config/providers-from-env.js';
import { resolveProviders } from '../../config/resolve-providers.js';
import { DEFAULT_BASE_URLS } from '../../providers/default-base-urls.js';
import { findPreset, OPENAI_COMPATIBLE_PRESETS } from '../../providers/openai-compatible/presets.js';
import type { ProviderKind } from '../../providers/provider-adapter.js';
import { PROVIDER_KINDS, isProviderKind } from '../../providers/registry.js';
import { addProviderRecord, removeProviderRecord, validateProviderName } from '../../state/providers.js';
import type { ProviderRecord } from '../../state/schema.js';
import { hostOf } from '../../state/bound-host.js';
import { describeProviderRows, formatProviderTable } from './provider-rows.js';
import { testProvider } from './provider-test.js';
import { describeTakes, readTakes } from './provider-takeover.js';
import { findSidecarLogin } from '../sidecar-login.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';
// Vertex AI's project, location and Google credentials come from the environment only (docs/providers.md).
const ADDABLE_KINDS = PROVIDER_KINDS.filter((kind) => kind !== 'mock' && kind !== 'vertex');

interface AddOptions {
  kind?: string; baseUrl?: string; apiKeyEnv?: string; apiKey?: string; apiVersion?: string; preset?: string; takes?: string; home?: string;
}

export function registerProvidersCommand(program: Command, context: CliContext): void {
  const providers = program.command('providers').description('Add, list, remove and test upstream providers');
  registerAdd(providers, context);
  registerList(providers, context);
  registerRemove(providers, context);
  registerTest(providers, context);
}

function registerAdd(providers: Command, context: CliContext): void {
  providers
    .command('add')
    .description('Add a provider to state.json (it wins over the environment\'s provider of the same name)')
    .argument('<name>', 'instance name, the `name` in name/model')
    .addOption(new Option('--kind <kind>', 'provider kind (default openai-compatible with --preset)').choices(ADDABLE_KINDS))
    .option('--base-url <url>', 'API base URL as the provider\'s SDK takes it (default: the kind\'s or preset\'s)')
    .option('--api-key-env <variable>', 'read the key from this environment variable of gw serve (stored as env:VARIABLE)')
    .option('--api-key <key>', 'store the key itself in state.json (0600); prefer --api-key-env')
    .option('--api-version <version>', 'Azure OpenAI api-version')
    .option('--takes <prefixes>', 'bare well-known model names it answers, e.g. \'gpt-*,o3\' (default: its vendor\'s, only at the vendor\'s own URL), or none')
    .addOption(new Option('--preset <preset>', 'OpenAI-compatible preset (its base URL is the default)').choices(OPENAI_COMPATIBLE_PRESETS.map((preset) => preset.name)))
    .option('--home <dir>', HOME_HELP)
    .action(async (name: string, options: AddOptions) => {
      // An admin's remote change (the hub's live store): keys the hub holds stay with their host.
      const remote = context.store !== undefined;
      const { record, droppedRouteKeys, takes } = await withStore(context, options.home, async (store) => {
        const before = store.snapshot().providers;
        const added = await addProviderRecord(store, buildRecord(name, options, context), { dropForeignRouteKeys: remote });
        // On a sidecar the hub answered the names no local provider took (an admin's remote add has none).
        const hub = remote ? null : (await findSidecarLogin(context.home(options.home), context.env).catch(() => null))?.hub ?? null;
        return { ...added, takes: describeTakes(before, added.record, { env: context.env, hub }) };
      });
      context.stdout.write(`added provider ${record.name} (${record.kind}, ${maskUrlCredentials(record.base_url)}, key ${describeKey(record.api_key)})\n`);
      context.stdout.write(`${takes.takes}\n`);
      for (const line of takes.takeover) context.stderr.write(`! ${line}\n`);
      for (const target of droppedRouteKeys) context.stdout.write(`${target}: its own key, set for another host, is dropped (give it again with gw routes add)\n`);
    });
}

function registerList(providers: Command, context: CliContext): void {
  providers
    .command('list')
    .description('List providers from state.json, the environment and the built-in mock (never their keys)')
    .option('--json', 'print JSON')
    .option('--home <dir>', HOME_HELP)
    .action(async (options: { json?: boolean; home?: string }) => {
      const state = await withStore(context, options.home, async (store) => store.snapshot());
      const { rows, warnings } = describeProviderRows(state.providers, context.env);
      for (const warning of warnings) context.stderr.write(`gw: ${warning}\n`);
      context.stdout.write(options.json ? `${JSON.stringify(rows, null, 2)}\n` : formatProviderTable(rows));
    });
}

function registerRemove(providers: Command, context: CliContext): void {
  providers
    .command('remove')
    .description('Remove a provider from state.json')
    .argument('<name>', 'instance name')
    .option('--home <dir>', HOME_HELP)
    .action(async (name: string, options: { home?: string }) => {
      const removed = await withStore(context, options.home, (store) => removeProviderRecord(store, name));
      if (removed === null) throw new CliExit(1, explainMissing(name, context));
      context.stdout.write(`removed provider ${name}\n`);
    });
}

function registerTest(providers: Command, context: CliContext): void {
  providers
    .command('test')
    .description('Send one small real request (the model list) and print status and latency')
    .argument('<name>', 'instance name')
    .option('--timeout <seconds>', 'give up after this long', '10')
    .option('--home <dir>', HOME_HELP)
    .action(async (name: string, options: { timeout: string; home?: string }) => {
      const state = await withStore(context, options.home, async (store) => store.snapshot());
      const seconds = Number(options.timeout);
      if (!(seconds > 0)) throw new CliExit(2, `invalid --timeout "${options.timeout}": use a number of seconds`);
      const { providers: resolved, warnings } = resolveProviders({ env: context.env, state });
      const provider = resolved.find((candidate) => candidate.name === name);
      if (provider === undefined) {
        const reason = warnings.find((warning) => warning.startsWith(`provider ${name}`));
        throw new CliExit(1, reason ?? `no provider named "${name}" (see gw providers list)`);
      }
      const line = await testProvider(provider, seconds * 1000);
      if (!line.ok) throw new CliExit(1, line.text);
      context.stdout.write(`${line.text}\n`);
    });
}

function buildRecord(name: string, options: AddOptions, context: CliContext): ProviderRecord {
  validateProviderName(name);
  const preset = options.preset === undefined ? null : findPreset(options.preset);
  if (options.preset !== undefined && preset === null) {
    throw new CliExit(2, `unknown preset "${options.preset}": use one of ${OPENAI_COMPATIBLE_PRESETS.map((entry) => entry.name).join(', ')}`);
  }
  const kind = readKind(options.kind ?? (preset === null ? undefined : 'openai-compatible'));
  if (preset !== null && kind !== 'openai-compatible') throw new CliExit(2, '--preset goes with --kind openai-compatible');
  const baseUrl = options.baseUrl ?? preset?.defaultBaseUrl ?? DEFAULT_BASE_URLS[kind];
  if (baseUrl === undefined) throw new CliExit(2, `--base-url is required for kind ${kind}`);
  if (!isHttpUrl(baseUrl)) throw new CliExit(2, `invalid --base-url "${maskUrlCredentials(baseUrl)}": use an http(s) URL`);
  if (options.apiVersion !== undefined && kind !== 'azure') throw new CliExit(2, '--api-version is for --kind azure');
  const apiKey = readKeyOption(options, context);
  const keyHost = apiKey === null ? null : hostOf(baseUrl);
  return {
    name, kind, base_url: baseUrl.replace(/\/+$/, ''), api_key: apiKey,
    ...(keyHost === null ? {} : { key_host: keyHost }),
    ...(options.apiVersion === undefined ? {} : { api_version: options.apiVersion }),
    ...(preset === null ? {} : { preset: preset.name }),
    ...(options.takes === undefined ? {} : { takes: readTakes(options.takes) }),
  };
}

function readKind(kind: string | undefined): ProviderKind {
  if (kind === undefined) throw new CliExit(2, `--kind is required: one of ${ADDABLE_KINDS.join(', ')} (or give --preset)`);
  if (!isProviderKind(kind) || kind === 'mock' || kind === 'vertex') throw new CliExit(2, `unknown kind "${kind}": use one of ${ADDABLE_KINDS.join(', ')}`);
  return kind;
}

function readKeyOption(options: AddOptions, context: CliContext): string | null {
  if (options.apiKeyEnv !== undefined && options.apiKey !== undefined) throw new CliExit(2, 'give --api-key-env or --api-key, not both');
  if (options.apiKeyEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(options.apiKeyEnv)) throw new CliExit(2, `invalid --api-key-env "${options.apiKeyEnv}": name a variable`);
    if (!context.env[options.apiKeyEnv]) context.stderr.write(`gw: note: ${options.apiKeyEnv} is not set here; gw serve must have it\n`);
    return `env:${options.apiKeyEnv}`;
  }
  if (options.apiKey === undefined) return null;
  if (options.apiKey.trim() === '') throw new CliExit(2, '--api-key is empty');
  context.stderr.write('gw: warning: the key is stored as is in state.json (mode 0600); --api-key-env VAR keeps it out of the file\n');
  return options.apiKey;
}

function describeKey(apiKey: string | null): string {
  if (apiKey === null) return 'none';
  return apiKey.startsWith('env:') ? apiKey : 'set';
}

function explainMissing(name: string, context: CliContext): string {
  if (name === 'mock') return 'mock is the built-in provider and cannot be removed';
  const fromEnvironment = readProviderEnvironment(context.env).providers.find((provider) => provider.name === name);
  if (fromEnvironment !== undefined) {
    const variables = [fromEnvironment.apiKeyFrom?.replace(/^env:/, ''), fromEnvironment.baseUrlFrom]
      .filter((variable): variable is string => variable !== undefined && variable !== 'default');
    return `provider ${name} comes from the environment (${variables.join(', ')}); unset that in the shell that runs gw serve`;
  }
  return `no provider named "${name}" in state.json (see gw providers list)`;
}

