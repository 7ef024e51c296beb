// `gw routes list|add|remove|test`: routing rules in state.json. A rule is a
// name clients use as a model, with weighted targets tried in order of a
// weighted (or session-sticky) pick, then by weight as fallbacks.
import type { Command } from 'commander';
import { CliExit, type CliContext } from '../cli-context.js';
import { formatTable, withStore } from '../state-command.js';
import { resolveProviders } from '../../config/resolve-providers.js';
import { refuseProvider } from '../../policy/evaluate-policy.js';
import { policiesFor } from '../../policy/policy-record.js';
import { planAttempts } from '../../routing/plan-attempts.js';
import { resolveModel } from '../../routing/resolve-model.js';
import { ROUTE_NAME, type RouteRule, type RouteTarget } from '../../routing/route-rule.js';
import type { ProviderRecord } from '../../state/schema.js';
import { hostOf } from '../../state/bound-host.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';
const TARGET_HELP = 'provider/model[,weight=N][,key=env:NAME][,timeout=MS] (repeat for each target)';

export function registerRoutesCommand(program: Command, context: CliContext): void {
  const routes = program.command('routes').description('Routing rules: a model name → weighted targets with fallbacks, retries, time-outs and session affinity');
  routes.command('list').description('List routing rules').option('--json', 'print JSON').option('--home <dir>', HOME_HELP)
    .action(async (options: { json?: boolean; home?: string }) => {
      const rules = await withStore(context, options.home, async (store) => store.snapshot().routes ?? []);
      // A literal key is written once and never shown again: `set`, as the table says.
      if (options.json) return context.stdout.write(`${JSON.stringify(rules.map(withKeysHidden), null, 2)}\n`);
      if (rules.length === 0) return context.stdout.write('no routing rules (gw routes add NAME --target provider/model …)\n');
      context.stdout.write(formatTable([['name', 'targets', 'retries', 'fallback'], ...rules.map((rule) => [
        rule.name, rule.targets.map(describeTarget).join(' | '), String(rule.retries ?? 0), rule.fallback === false ? 'no' : 'yes',
      ])]));
    });
  routes.command('add').description('Add or replace a routing rule').argument('<name>', 'the model name clients will use')
    .requiredOption('--target <target...>', TARGET_HELP).option('--retries <n>', 'extra tries of a target before falling back (0–5)', '0')
    .option('--no-fallback', 'only the first pick, no fallback to other targets').option('--home <dir>', HOME_HELP)
    .action(async (name: string, options: { target: string[]; retries: string; fallback: boolean; home?: string }) => {
      if (!ROUTE_NAME.test(name)) throw new CliExit(2, `invalid route name "${name}"`);
      const retries = Number(options.retries);
      if (!Number.isInteger(retries) || retries < 0 || retries > 5) throw new CliExit(2, `invalid --retries "${options.retries}": 0 to 5`);
      const rule: RouteRule = { name, targets: options.target.map(parseTarget), ...(retries > 0 ? { retries } : {}), ...(options.fallback ? {} : { fallback: false }) };
      await withStore(context, options.home, (store) => store.update((draft) => {
        bindTargetKeys(rule, draft.providers);
        draft.routes = [...(draft.routes ?? []).filter((existing) => existing.name !== name), rule];
      }));
      context.stdout.write(`route ${name}: ${rule.targets.map(describeTarget).join(' | ')}\n`);
    });
  routes.command('remove').description('Remove a routing rule').argument('<name>').option('--home <dir>', HOME_HELP)
    .action(async (name: string, options: { home?: string }) => {
      const removed = await withStore(context, options.home, (store) => store.update((draft) => {
        const before = (draft.routes ?? []).length;
        draft.routes = (draft.routes ?? []).filter((rule) => rule.name !== name);
        return before !== draft.routes.length;
      }));
      if (!removed) throw new CliExit(1, `no route named "${name}" (see gw routes list)`);
      context.stdout.write(`removed route ${name}\n`);
    });
  registerTest(routes, context);
}

function registerTest(routes: Command, context: CliContext): void {
  routes.command('test').description('Which rule a sample request hits, the order its targets would be tried in, and why')
    .argument('<model>', 'the model the request names').option('--session <id>', 'a session id (x-claude-code-session-id…): the pick sticks to it')
    .option('--team <team>', 'as this team (its provider policies apply)').option('--key <id>', 'as this key (vk_…)').option('--home <dir>', HOME_HELP)
    .action(async (model: string, options: { session?: string; team?: string; key?: string; home?: string }) => {
      const state = await withStore(context, options.home, async (store) => store.snapshot());
      const { providers } = resolveProviders({ env: context.env, state });
      const rule = (state.routes ?? []).find((candidate) => candidate.name === model);
      const policies = options.team ? policiesFor(state.policies ?? [], options.team, options.key ?? null) : [];
      if (!rule) {
        const route = resolveModel(model, providers, state.aliases);
        context.stdout.write(`no routing rule named "${model}": the model routes to ${route.provider.name} as "${route.upstreamModel}" (provider name, alias or prefix), one try\n`);
        return;
      }
      const why = options.session ? `session "${options.session}" sticks to the first pick (hash of the id)` : 'first pick drawn by weight (random per request; give --session to see a sticky pick)';
      context.stdout.write(`rule "${rule.name}": ${rule.targets.length} target(s), ${rule.retries ?? 0} retr${rule.retries === 1 ? 'y' : 'ies'} each, fallback ${rule.fallback === false ? 'off' : 'on'}; ${why}\n`);
      const attempts = planAttempts(rule, { random: Math.random, sessionId: options.session ?? null });
      attempts.forEach((attempt, index) => {
        const provider = attempt.target.model.split('/')[0] ?? '';
        const refusal = refuseProvider(policies, provider);
        const note = refusal ? ` — skipped: ${refusal.reason}` : attempt.retry > 0 ? ' (retry, after backoff or retry-after)' : index === 0 ? ' (first pick)' : ' (fallback on 429, 5xx, time-out, connection error)';
        context.stdout.write(`${index + 1}. ${describeTarget(attempt.target)}${note}\n`);
      });
    });
}

function parseTarget(text: string): RouteTarget {
  const [model = '', ...options] = text.split(',');
  if (!/^[^/]+\/.+$/.test(model)) throw new CliExit(2, `invalid --target "${text}": start with provider/model`);
  const target: RouteTarget = { model, weight: 1 };
  for (const option of options) {
    const [name, value = ''] = option.split(/=(.*)/s);
    if (name === 'weight' && /^\d+(\.\d+)?$/.test(value)) target.weight = Number(value);
    else if (name === 'key' && value !== '') target.key = value;
    else if (name === 'timeout' && /^\d+$/.test(value) && Number(value) > 0) target.timeout_ms = Number(value);
    else throw new CliExit(2, `invalid --target option "${option}": use weight=N, key=env:NAME or timeout=MS`);
  }
  return target;
}

/**
 * A target's own key goes only to the host its provider names now (src/state/bound-host.ts). Only
 * a provider of the state is bound: one from the environment has the URL of gw serve's environment,
 * which this shell may not share, and a remote admin cannot change; shadowing it with a state
 * provider of the same name remotely drops the key (addProviderRecord).
 */
function bindTargetKeys(rule: RouteRule, providers: readonly ProviderRecord[]): void {
  for (const target of rule.targets) {
    if (target.key === undefined) continue;
    const provider = providers.find((candidate) => candidate.name === target.model.slice(0, target.model.indexOf('/')));
    const host = provider === undefined ? null : hostOf(provider.base_url);
    if (host !== null) target.key_host = host;
  }
}

function shownKey(key: string): string {
  return key.startsWith('env:') ? key : 'set';
}

function withKeysHidden(rule: RouteRule): RouteRule {
  return { ...rule, targets: rule.targets.map((target) => (target.key === undefined ? target : { ...target, key: shownKey(target.key) })) };
}

function describeTarget(target: RouteTarget): string {
  const key = target.key === undefined ? '' : `, key ${shownKey(target.key)}`;
  return `${target.model} (weight ${target.weight}${key}${target.timeout_ms ? `, time-out ${target.timeout_ms} ms` : ''})`;
}
