// `gw dlp list|set|add|remove|output|test`: DLP rules per scope (`*`,
// `team:NAME`, `key:vk_…`). Defaults: secrets block, PII log. A running gateway
// applies a change within a second. Matched text is never printed, even by test.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { CliExit, type CliContext } from '../cli-context.js';
import { formatTable, withStore } from '../state-command.js';
import { BUILT_IN_DETECTORS } from '../../dlp/built-in-detectors.js';
import { RULE_ID } from '../../dlp/custom-rule.js';
import { compileCustomRule } from '../../dlp/custom-rule.js';
import { resolveDlpSettings, scopesFor, type DlpScopeRecord, type RuleSetting } from '../../dlp/dlp-config.js';
import { scanRequestBody } from '../../dlp/scan-request.js';
import { isPolicyScope } from '../../policy/policy-record.js';
import type { StateData } from '../../state/schema.js';
import { errorMessage } from '../../error-message.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';
const SCOPE_HELP = '*, team:NAME or key:vk_… (default *)';
const ACTIONS = ['block', 'redact', 'log', 'off'];

export function registerDlpCommand(program: Command, context: CliContext): void {
  const dlp = program.command('dlp').description('Data-loss prevention rules: built-in secret and PII detectors, custom patterns, actions per team and key');
  dlp.command('list').description('Rules and their actions in a scope (with * and the team under a key)').option('--scope <scope>', SCOPE_HELP, '*')
    .option('--json', 'print JSON').option('--home <dir>', HOME_HELP)
    .action(async (options: { scope: string; json?: boolean; home?: string }) => {
      const records = await withStore(context, options.home, async (store) => store.snapshot().dlp ?? []);
      const settings = resolveDlpSettings(records, chainOf(checkScope(options.scope)));
      const rows = [...BUILT_IN_DETECTORS.map((detector) => detector.id), ...customIds(records)].map((id) => {
        const active = settings.rules.find((rule) => rule.detector.id === id);
        return { id, category: active?.detector.category ?? categoryOf(id), action: active?.action ?? 'off', description: active?.detector.description ?? '' };
      });
      if (options.json) return context.stdout.write(`${JSON.stringify({ rules: rows, output_scan: settings.outputScan }, null, 2)}\n`);
      context.stdout.write(formatTable([['rule', 'category', 'action', 'what'], ...rows.map((row) => [row.id, row.category, row.action, row.description])]));
      context.stdout.write(`output scanning: ${settings.outputScan ? 'on' : 'off'}\n`);
    });
  dlp.command('set').description('Set a rule\'s action in a scope: block, redact, log or off').argument('<rule>', 'rule id (gw dlp list)')
    .argument('<action>', ACTIONS.join('|')).option('--scope <scope>', SCOPE_HELP, '*').option('--home <dir>', HOME_HELP)
    .action(async (rule: string, action: string, options: { scope: string; home?: string }) => {
      if (!ACTIONS.includes(action)) throw new CliExit(2, `invalid action "${action}": use ${ACTIONS.join(', ')}`);
      const scope = checkScope(options.scope);
      await edit(context, options.home, scope, (record, state) => {
        if (!BUILT_IN_DETECTORS.some((detector) => detector.id === rule) && !customIds(state.dlp ?? []).includes(rule)) throw new CliExit(1, `no rule "${rule}" (see gw dlp list)`);
        record.actions = { ...record.actions, [rule]: action as RuleSetting };
      });
      context.stdout.write(`dlp ${scope}: ${rule} → ${action}\n`);
    });
  dlp.command('add').description('Add a custom rule (RE2 syntax: linear time, no backreferences or lookarounds)').argument('<id>', 'rule id (snake_case)')
    .requiredOption('--pattern <re2>', 'the pattern').option('--action <action>', 'block, redact or log', 'block').option('--ignore-case', 'match case-insensitively')
    .option('--scope <scope>', SCOPE_HELP, '*').option('--home <dir>', HOME_HELP)
    .action(async (id: string, options: { pattern: string; action: string; ignoreCase?: boolean; scope: string; home?: string }) => {
      if (!RULE_ID.test(id) || BUILT_IN_DETECTORS.some((detector) => detector.id === id)) throw new CliExit(2, `invalid rule id "${id}": snake_case, not a built-in id`);
      if (!['block', 'redact', 'log'].includes(options.action)) throw new CliExit(2, `invalid --action "${options.action}": use block, redact or log`);
      const rule = { id, pattern: options.pattern, action: options.action as 'block', ...(options.ignoreCase ? { case_insensitive: true } : {}) };
      try { compileCustomRule(rule); } catch (error) { throw new CliExit(2, errorMessage(error)); }
      await edit(context, options.home, checkScope(options.scope), (record) => { record.custom = [...(record.custom ?? []).filter((existing) => existing.id !== id), rule]; });
      context.stdout.write(`added dlp rule ${id} (${options.action})\n`);
    });
  dlp.command('remove').description('Remove a custom rule, or a rule\'s action override, from a scope').argument('<rule>')
    .option('--scope <scope>', SCOPE_HELP, '*').option('--home <dir>', HOME_HELP)
    .action(async (rule: string, options: { scope: string; home?: string }) => {
      let found = false;
      await edit(context, options.home, checkScope(options.scope), (record) => {
        found = (record.custom ?? []).some((existing) => existing.id === rule) || Object.hasOwn(record.actions ?? {}, rule);
        record.custom = (record.custom ?? []).filter((existing) => existing.id !== rule);
        if (record.actions) delete record.actions[rule];
      });
      if (!found) throw new CliExit(1, `no custom rule or override "${rule}" in scope ${options.scope}`);
      context.stdout.write(`removed ${rule} from dlp ${options.scope}\n`);
    });
  dlp.command('output').description('Scan responses too (streams end with an error event on a block): on or off').argument('<state>', 'on|off')
    .option('--scope <scope>', SCOPE_HELP, '*').option('--home <dir>', HOME_HELP)
    .action(async (state: string, options: { scope: string; home?: string }) => {
      if (state !== 'on' && state !== 'off') throw new CliExit(2, `invalid state "${state}": use on or off`);
      await edit(context, options.home, checkScope(options.scope), (record) => { record.output_scan = state === 'on'; });
      context.stdout.write(`dlp ${options.scope}: output scanning ${state}\n`);
    });
  registerTest(dlp, context);
}

function registerTest(dlp: Command, context: CliContext): void {
  dlp.command('test').description('Which rules fire on a sample (text, or a JSON request body with --file) and what they would do; matches are not printed')
    .argument('[text]', 'sample text').option('--file <file>', 'a JSON request body or a text file').option('--team <team>', 'as this team', 'local')
    .option('--key <id>', 'as this key (vk_…)').option('--home <dir>', HOME_HELP)
    .action(async (text: string | undefined, options: { file?: string; team: string; key?: string; home?: string }) => {
      if (text === undefined && options.file === undefined) throw new CliExit(2, 'give a sample text or --file');
      const sample = options.file === undefined ? text! : await readFile(options.file, 'utf8');
      let body: unknown = { input: sample };
      try { if (options.file !== undefined) body = JSON.parse(sample) as unknown; } catch { /* plain text */ }
      const records = await withStore(context, options.home, async (store) => store.snapshot().dlp ?? []);
      const scan = scanRequestBody(body, resolveDlpSettings(records, scopesFor(options.team, options.key ?? null)).rules);
      const ids = Object.keys(scan.counts);
      if (ids.length === 0) return context.stdout.write('no rule fires\n');
      context.stdout.write(formatTable([['rule', 'matches', 'action'], ...ids.map((id) => [id, String(scan.counts[id]), scan.actions[id] ?? ''])]));
      context.stdout.write(scan.blockedBy ? `the request would be blocked (403) by ${scan.blockedBy}\n` : scan.redacted > 0 ? `${scan.redacted} match(es) would be redacted\n` : 'the request would pass (logged)\n');
    });
}

function checkScope(scope: string): string {
  if (!isPolicyScope(scope)) throw new CliExit(2, `invalid scope "${scope}": use *, team:NAME or key:vk_…`);
  return scope;
}

/** A scope and the wider ones it inherits from. */
function chainOf(scope: string): string[] {
  return scope === '*' ? ['*'] : ['*', scope];
}

function customIds(records: readonly DlpScopeRecord[]): string[] {
  return [...new Set(records.flatMap((record) => (record.custom ?? []).map((rule) => rule.id)))];
}

function categoryOf(id: string): string {
  return BUILT_IN_DETECTORS.find((detector) => detector.id === id)?.category ?? 'custom';
}

async function edit(context: CliContext, home: string | undefined, scope: string, change: (record: DlpScopeRecord, state: StateData) => void): Promise<void> {
  await withStore(context, home, (store) => store.update((draft) => {
    draft.dlp ??= [];
    let record = draft.dlp.find((candidate) => candidate.scope === scope);
    if (!record) {
      record = { scope };
      draft.dlp.push(record);
    }
    change(record, draft);
  }));
}
