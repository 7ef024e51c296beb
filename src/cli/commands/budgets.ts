// `gw budgets set|list|remove|test`: spend budgets per key, team or person: an amount in USD per
// calendar day, week (from Monday) or month, in UTC or a time zone; hard (refuse) or soft (warn).
// `test` reads the trail for what each budget has spent this period and says what a sample call
// would get, as gw serve would decide it.
import type { Command } from 'commander';
import { resolveProviders } from '../../config/resolve-providers.js';
import { GatewayError } from '../../errors.js';
import { budgetApplies, counterKey, describe, usd } from '../../spend/budget-keeper.js';
import { isTimeZone, periodOf } from '../../spend/budget-period.js';
import { estimateWorstCase } from '../../spend/estimate-worst-case.js';
import { openTrailSource } from '../../spend/trail-source.js';
import { resolveStoreUrl } from '../../postgres/open-state.js';
import { openStoreTrailSource } from '../../postgres/store-trail-source.js';
import { createSpendServices, earliestPeriodStart, rebuildCounters } from '../../spend/spend-services.js';
import type { StoredBudget } from '../../state/governance-schema.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { formatTable, withStore } from '../state-command.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';
const SCOPE = /^(?:team:[^\s:]+|key:vk_[0-9A-Za-z]+|person:\S+)$/;
const PERIODS = new Set(['day', 'week', 'month']);

interface SetFlags { amount: string; period: string; timeZone?: string; soft?: boolean; home?: string }

export function registerBudgetsCommand(program: Command, context: CliContext): void {
  const budgets = program.command('budgets').description('Spend budgets per key, team or person: USD per day, week or month; hard (refuse) or soft (warn)');
  budgets.command('set').description('Set (or replace) the budget of a scope for a period').argument('<scope>', 'team:NAME, key:vk_… or person:EMAIL')
    .requiredOption('--amount <usd>', 'USD per period').option('--period <period>', 'day, week (from Monday) or month', 'month')
    .option('--time-zone <zone>', 'IANA time zone the period follows (default UTC)').option('--soft', 'warn (header and audit) instead of refusing')
    .option('--home <dir>', HOME_HELP)
    .action(async (scope: string, options: SetFlags) => {
      const budget = parseBudget(scope, options);
      await withStore(context, options.home, (store) => store.update((draft) => {
        draft.budgets = [...(draft.budgets ?? []).filter((existing) => existing.scope !== scope || existing.period !== budget.period), budget];
      }));
      context.stdout.write(`budget ${describe(budget)}\n`);
    });
  budgets.command('list').description('List budgets').option('--json', 'print JSON').option('--home <dir>', HOME_HELP)
    .action(async (options: { json?: boolean; home?: string }) => {
      const entries = await withStore(context, options.home, async (store) => store.snapshot().budgets ?? []);
      if (options.json) return context.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
      if (entries.length === 0) return context.stdout.write('no budgets (gw budgets set team:NAME --amount 100 --period month)\n');
      context.stdout.write(formatTable([['scope', 'amount', 'period', 'time zone', 'mode'], ...entries.map((entry) => [
        entry.scope, usd(entry.amount_usd * 1e9), entry.period, entry.time_zone ?? 'UTC', entry.mode,
      ])]));
    });
  budgets.command('remove').description('Remove a scope\'s budgets (one period with --period)').argument('<scope>').option('--period <period>', 'only this period')
    .option('--home <dir>', HOME_HELP)
    .action(async (scope: string, options: { period?: string; home?: string }) => {
      const removed = await withStore(context, options.home, (store) => store.update((draft) => {
        const before = (draft.budgets ?? []).length;
        draft.budgets = (draft.budgets ?? []).filter((entry) => entry.scope !== scope || (options.period !== undefined && entry.period !== options.period));
        return before !== draft.budgets.length;
      }));
      if (!removed) throw new CliExit(1, `no budget for ${scope} (see gw budgets list)`);
      context.stdout.write(`removed budget ${scope}${options.period ? ` (${options.period})` : ''}\n`);
    });
  registerTest(budgets, context);
}

function parseBudget(scope: string, options: SetFlags): StoredBudget {
  if (!SCOPE.test(scope)) throw new CliExit(2, `invalid scope "${scope}": team:NAME, key:vk_… or person:EMAIL`);
  const amount = Number(options.amount);
  if (!Number.isFinite(amount) || amount <= 0) throw new CliExit(2, `invalid --amount "${options.amount}": USD > 0`);
  if (!PERIODS.has(options.period)) throw new CliExit(2, `invalid --period "${options.period}": day, week or month`);
  if (options.timeZone !== undefined && !isTimeZone(options.timeZone)) throw new CliExit(2, `unknown --time-zone "${options.timeZone}" (an IANA name such as Europe/Paris)`);
  return { scope, amount_usd: amount, period: options.period as StoredBudget['period'], ...(options.timeZone ? { time_zone: options.timeZone } : {}), mode: options.soft ? 'soft' : 'hard' };
}

interface TestFlags { team: string; key?: string; person?: string; model?: string; maxTokens: string; inputTokens: string; home?: string }

function registerTest(budgets: Command, context: CliContext): void {
  budgets.command('test').description('What each budget has spent this period (from the trail), and what a sample call would get')
    .requiredOption('--team <team>', 'as this team').option('--key <id>', 'as this key (vk_…)').option('--person <email>', 'as this person')
    .option('--model <provider/model>', 'the sample call\'s model').option('--input-tokens <n>', 'the sample call\'s input', '1000')
    .option('--max-tokens <n>', 'the sample call\'s max_tokens', '4096').option('--home <dir>', HOME_HELP)
    .action(async (options: TestFlags) => {
      const home = context.home(options.home);
      const state = await withStore(context, options.home, async (store) => store.snapshot());
      const now = new Date();
      const subject = { team: options.team, keyId: options.key ?? null, person: options.person ?? null };
      const spend = createSpendServices({ overrides: () => state.prices ?? [], now: () => now });
      const all = state.budgets ?? [];
      const since = earliestPeriodStart(all, now);
      if (since) {
        const trail = await openTrailSource(home, resolveStoreUrl(undefined, context.env), openStoreTrailSource);
        await rebuildCounters(all, trail.records(since), spend.counter, now).catch(() => 0).finally(() => trail.close().catch(() => undefined));
      }
      for (const budget of all.filter((entry) => budgetApplies(entry, subject))) {
        const window = periodOf(budget.period, now, budget.time_zone);
        const spent = await spend.counter.spent(counterKey(budget, window.start));
        context.stdout.write(`${describe(budget)}: ${usd(spent)} spent since ${window.start.toISOString()}, resets ${window.end.toISOString()}\n`);
      }
      const worstCase = options.model ? sampleWorstCase(options, state, context, spend) : 0;
      let admitted = false;
      try {
        const admission = await spend.budgets.admit(all, subject, worstCase);
        admitted = true;
        for (const warning of admission.warnings) context.stdout.write(`warn: soft budget ${warning}\n`);
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error;
        context.stdout.write(`refused (${error.code}${error.headers['retry-after'] ? `, retry-after ${error.headers['retry-after']} s` : ''}): ${error.message}\n`);
      }
      if (admitted) context.stdout.write(options.model ? `allowed: the call may cost up to ${worstCase === null ? 'an unknown amount' : usd(worstCase)}\n` : 'allowed\n');
    });
}

function sampleWorstCase(options: TestFlags, state: Parameters<typeof resolveProviders>[0]['state'], context: CliContext, spend: ReturnType<typeof createSpendServices>): number | null {
  const model = options.model ?? '';
  const slash = model.indexOf('/');
  const provider = model.slice(0, slash);
  const config = resolveProviders({ env: context.env, state }).providers.find((candidate) => candidate.name === provider);
  const rates = spend.prices.rates({ provider, kind: config?.kind ?? provider, preset: config?.preset, model: model.slice(slash + 1) });
  return rates === null ? null : estimateWorstCase(rates, Number(options.inputTokens) * 4, { max_tokens: Number(options.maxTokens) });
}
