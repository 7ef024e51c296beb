// gw guardrails add|list|remove: external guardrails gw calls before a call leaves (pre), on its
// answer before the client gets it (post), or both (docs/guardrails.md). The credential belongs in
// gw's environment, as provider keys do (`--credential env:LAKERA_KEY`); a value given remotely
// (--hub) is kept in the state and never shown again.
import type { Command } from 'commander';
import { hostOf } from '../../state/bound-host.js';
import { GUARDRAIL_KINDS, GUARDRAIL_NAME, type StoredGuardrail } from '../../state/guardrails.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { formatTable, withStore } from '../state-command.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';

interface AddOptions {
  kind: string; url: string; scope: string; when: string; timeoutMs: string; onError: string;
  credential?: string; option?: string[]; home?: string;
}

export function registerGuardrailsCommand(program: Command, context: CliContext): void {
  const guardrails = program.command('guardrails').description('External guardrails gw calls on requests (pre) and answers (post): HTTP, Presidio, OpenAI moderation, Lakera, Bedrock');
  guardrails.command('add').description('Add (or replace) a guardrail').argument('<name>', 'lower-case letters, digits and hyphens: its name in the trail and /metrics')
    .requiredOption('--kind <kind>', GUARDRAIL_KINDS.join('|'))
    .requiredOption('--url <url>', 'the guardrail\'s base URL (http: the endpoint itself)')
    .option('--scope <scope>', 'global (or *), team:NAME or key:vk_…', 'global')
    .option('--when <when>', 'pre (the request), post (the answer) or both', 'pre')
    .option('--timeout-ms <n>', 'how long gw waits for a verdict', '2000')
    .option('--on-error <mode>', 'open (let the call through) or closed (refuse it) when the guardrail times out, fails or answers garbage', 'open')
    .option('--credential <value>', 'env:VARIABLE of gw serve (or, remotely, the value itself: written once, never shown)')
    .option('--option <name=value...>', 'kind settings: bedrock guardrail_id, version, region; presidio anonymizer_url, language, score_threshold')
    .option('--home <dir>', HOME_HELP)
    .action(async (name: string, options: AddOptions) => {
      const guardrail = readAddOptions(name, options);
      await withStore(context, options.home, (store) => store.update((draft) => {
        draft.guardrails = [...(draft.guardrails ?? []).filter((existing) => existing.name !== name), guardrail];
      }));
      context.stdout.write(`added guardrail ${name} (${guardrail.kind}, ${guardrail.when}, ${guardrail.scope}, fails ${guardrail.on_error})\n`);
    });
  guardrails.command('list').description('List guardrails (a credential only as its env: reference)')
    .option('--json', 'print JSON').option('--home <dir>', HOME_HELP)
    .action(async (options: { json?: boolean; home?: string }) => {
      const listed = await withStore(context, options.home, async (store) => store.snapshot().guardrails ?? []);
      const rows = listed.map((guardrail) => ({
        name: guardrail.name, kind: guardrail.kind, url: guardrail.url, scope: guardrail.scope, when: guardrail.when,
        timeout_ms: guardrail.timeout_ms, on_error: guardrail.on_error, credential: shownCredential(guardrail.credential), options: guardrail.options ?? {},
      }));
      if (options.json) return context.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      if (rows.length === 0) return context.stdout.write('no guardrails (gw guardrails add NAME --kind http --url URL)\n');
      context.stdout.write(formatTable([['NAME', 'KIND', 'URL', 'SCOPE', 'WHEN', 'TIMEOUT', 'ON ERROR', 'CREDENTIAL'], ...rows.map((row) => [
        row.name, row.kind, row.url, row.scope, row.when, `${row.timeout_ms} ms`, row.on_error, row.credential,
      ])]));
    });
  guardrails.command('remove').description('Remove a guardrail').argument('<name>').option('--home <dir>', HOME_HELP)
    .action(async (name: string, options: { home?: string }) => {
      const removed = await withStore(context, options.home, (store) => store.update((draft) => {
        const before = (draft.guardrails ?? []).length;
        draft.guardrails = (draft.guardrails ?? []).filter((guardrail) => guardrail.name !== name);
        return before !== draft.guardrails.length;
      }));
      if (!removed) throw new CliExit(1, `no guardrail ${name} (see gw guardrails list)`);
      context.stdout.write(`removed guardrail ${name}\n`);
    });
}

function readAddOptions(name: string, options: AddOptions): StoredGuardrail {
  if (!GUARDRAIL_NAME.test(name)) throw new CliExit(2, `invalid guardrail name "${name}": lower-case letters, digits and single hyphens`);
  const kind = GUARDRAIL_KINDS.find((candidate) => candidate === options.kind);
  if (kind === undefined) throw new CliExit(2, `--kind is one of ${GUARDRAIL_KINDS.join(', ')}`);
  if (!/^https?:\/\//.test(options.url) || hostOf(options.url) === null) throw new CliExit(2, `--url takes an http(s) URL; got ${options.url}`);
  const scope = options.scope === 'global' ? '*' : options.scope;
  if (!/^(?:\*|team:[^\s:]+|key:vk_[0-9A-Za-z]+)$/.test(scope)) throw new CliExit(2, `invalid --scope "${options.scope}": use global, team:NAME or key:vk_…`);
  const when = options.when === 'pre' || options.when === 'post' || options.when === 'both' ? options.when : null;
  if (when === null) throw new CliExit(2, '--when is pre, post or both');
  const timeoutMs = Number(options.timeoutMs);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > 600_000) throw new CliExit(2, '--timeout-ms is a whole number of milliseconds, 1 to 600000');
  const onError = options.onError === 'open' || options.onError === 'closed' ? options.onError : null;
  if (onError === null) throw new CliExit(2, '--on-error is open or closed');
  if (options.credential === '') throw new CliExit(2, '--credential is empty');
  const settings = readPairs(options.option);
  if (kind === 'bedrock' && (settings.guardrail_id === undefined || settings.region === undefined)) {
    throw new CliExit(2, 'a bedrock guardrail needs --option guardrail_id=ID --option region=REGION (and version=N, default DRAFT)');
  }
  const credentialHost = options.credential === undefined ? null : hostOf(options.url);
  return {
    name, kind, url: options.url, scope, when, timeout_ms: timeoutMs, on_error: onError, created_at: new Date().toISOString(),
    ...(options.credential === undefined ? {} : { credential: options.credential }),
    ...(credentialHost === null ? {} : { credential_host: credentialHost }),
    ...(Object.keys(settings).length > 0 ? { options: settings } : {}),
  };
}

function readPairs(values: readonly string[] | undefined): Record<string, string> {
  const map: Record<string, string> = {};
  for (const value of values ?? []) {
    const at = value.indexOf('=');
    if (at <= 0) throw new CliExit(2, `--option takes NAME=VALUE; got ${value}`);
    map[value.slice(0, at)] = value.slice(at + 1);
  }
  return map;
}

/** What listings show: a reference stays a reference; a literal value is never printed. */
function shownCredential(value: string | undefined): string {
  if (value === undefined) return '';
  return value.startsWith('env:') ? value : '(set, hidden)';
}
