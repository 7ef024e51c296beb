// `gw policy list|set|remove|test`: per-scope policies in state.json (`*`,
// `team:NAME`, `key:vk_…`). A running gateway applies a change within a second.
import type { Command } from 'commander';
import { CliExit, type CliContext } from '../cli-context.js';
import { formatTable, withStore } from '../state-command.js';
import { evaluateAccess, refuseProvider, type PolicyRefusal } from '../../policy/evaluate-policy.js';
import { evaluateMcpAccess, type McpCapabilityKind } from '../../policy/evaluate-mcp-access.js';
import { isPolicyScope, policiesFor, type PolicyRecord } from '../../policy/policy-record.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';

interface SetOptions {
  mode?: string; allowModels?: string; denyModels?: string; allowProviders?: string; denyProviders?: string;
  allowOperations?: string; denyOperations?: string;
  allowTools?: string; denyTools?: string; allowMcpServers?: string; denyMcpServers?: string;
  allowResources?: string; denyResources?: string; allowPrompts?: string; denyPrompts?: string; maxTokens?: string; rpm?: string; tpm?: string; cacheMarker?: string; home?: string;
}

const LIST_OPTIONS: Array<[keyof SetOptions, keyof PolicyRecord, string]> = [
  ['allowModels', 'allow_models', 'model globs allowed (comma-separated; e.g. "openai/*,claude-*")'],
  ['denyModels', 'deny_models', 'model globs refused'],
  ['allowProviders', 'allow_providers', 'providers allowed'],
  ['denyProviders', 'deny_providers', 'providers refused'],
  ['allowOperations', 'allow_operations', 'operations allowed (chat.completions, messages, embeddings, genai.generateContent…)'],
  ['denyOperations', 'deny_operations', 'operations refused'],
  ['allowTools', 'allow_tools', 'MCP tool globs allowed, over namespaced names (e.g. "github__get_*,docs__*")'],
  ['denyTools', 'deny_tools', 'MCP tool globs refused (hidden from tools/list too)'],
  ['allowMcpServers', 'allow_mcp_servers', 'MCP servers allowed (globs)'],
  ['denyMcpServers', 'deny_mcp_servers', 'MCP servers refused (globs)'],
  ['allowResources', 'allow_resources', 'MCP resource globs allowed, over SERVER__URI (e.g. "files__file:///docs/*"); also lets resources/read reach a URI its server did not list'],
  ['denyResources', 'deny_resources', 'MCP resource globs refused (hidden from resources/list too)'],
  ['allowPrompts', 'allow_prompts', 'MCP prompt globs allowed, over namespaced names (e.g. "docs__review*")'],
  ['denyPrompts', 'deny_prompts', 'MCP prompt globs refused (hidden from prompts/list too)'],
];
const NUMBER_OPTIONS: Array<[keyof SetOptions, keyof PolicyRecord, string, string]> = [
  ['maxTokens', 'max_tokens', '--max-tokens <n>', 'largest max_tokens a request may ask for'],
  ['rpm', 'requests_per_minute', '--rpm <n>', 'requests per minute (sliding window, shared by the scope)'],
  ['tpm', 'tokens_per_minute', '--tpm <n>', 'tokens per minute (estimated, corrected by usage)'],
];

export function registerPolicyCommand(program: Command, context: CliContext): void {
  const policy = program.command('policy').description('Policies per team and key: models, providers, operations, max tokens, rate limits, shadow mode');
  policy.command('list').description('List policies').option('--json', 'print JSON').option('--home <dir>', HOME_HELP)
    .action(async (options: { json?: boolean; home?: string }) => {
      const records = await withStore(context, options.home, async (store) => store.snapshot().policies ?? []);
      if (options.json) return context.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
      if (records.length === 0) return context.stdout.write('no policies (everything is allowed; gw policy set SCOPE …)\n');
      context.stdout.write(formatTable([['scope', 'mode', 'rules'], ...records.map((record) => [record.scope, record.mode ?? 'enforce', describe(record)])]));
    });
  const set = policy.command('set').description('Create or change the policy of a scope (*, team:NAME or key:vk_…); unnamed fields stay as they are')
    .argument('<scope>', '*, team:NAME or key:vk_…')
    .option('--mode <mode>', 'enforce (refuse) or shadow (record only)');
  for (const [, field, help] of LIST_OPTIONS) set.option(`--${field.replace(/_/g, '-')} <list>`, `${help}; "none" clears`);
  for (const [, , flag, help] of NUMBER_OPTIONS) set.option(flag, `${help}; 0 clears`);
  set.option('--cache-marker <on|off|none>', 'add a prompt-cache marker where the client sent none (docs/prompt-cache.md; the most specific scope decides); "none" clears');
  set.option('--home <dir>', HOME_HELP).action(async (scope: string, options: SetOptions) => {
    const change = readChange(scope, options);
    const record = await withStore(context, options.home, (store) => store.update((draft) => {
      draft.policies ??= [];
      let existing = draft.policies.find((candidate) => candidate.scope === scope);
      if (!existing) {
        existing = { scope };
        draft.policies.push(existing);
      }
      for (const [field, value] of Object.entries(change)) {
        // A field of readChange's typed change, by name: cleared (none) or set.
        if (value === undefined) Reflect.deleteProperty(existing, field);
        else Reflect.set(existing, field, value);
      }
      return { ...existing };
    }));
    context.stdout.write(`policy ${record.scope}: ${describe(record)}\n`);
  });
  policy.command('remove').description('Remove the policy of a scope').argument('<scope>').option('--home <dir>', HOME_HELP)
    .action(async (scope: string, options: { home?: string }) => {
      const removed = await withStore(context, options.home, (store) => store.update((draft) => {
        const before = (draft.policies ??= []).length;
        draft.policies = draft.policies.filter((record) => record.scope !== scope);
        return before !== draft.policies.length;
      }));
      if (!removed) throw new CliExit(1, `no policy for scope ${scope} (see gw policy list)`);
      context.stdout.write(`removed policy ${scope}\n`);
    });
  registerTest(policy, context);
}

function registerTest(policy: Command, context: CliContext): void {
  policy.command('test').description('Which policy refuses a sample request (a model call, or an MCP server and one of its tools, resources or prompts), and why')
    .requiredOption('--team <team>', 'the caller\'s team').option('--key <id>', 'the caller\'s key id (vk_…)')
    .option('--model <model>', 'the model asked for').option('--operation <operation>', 'operation', 'chat.completions')
    .option('--provider <provider>', 'the provider routing would pick').option('--max-tokens <n>', 'max tokens asked for')
    .option('--mcp-server <name>', 'an MCP server (instead of --model)').option('--tool <name>', 'with --mcp-server: one of its tools (its own name)')
    .option('--resource <uri>', 'with --mcp-server: one of its resources (its own URI)').option('--prompt <name>', 'with --mcp-server: one of its prompts')
    .option('--home <dir>', HOME_HELP)
    .action(async (options: TestOptions) => {
      if ((options.model === undefined) === (options.mcpServer === undefined)) throw new CliExit(2, 'give --model (a model call) or --mcp-server (an MCP server), one of them');
      const records = await withStore(context, options.home, async (store) => store.snapshot().policies ?? []);
      const applying = policiesFor(records, options.team, options.key ?? null);
      const refusals = options.mcpServer !== undefined ? mcpRefusals(applying, options.mcpServer, options) : modelRefusals(applying, options);
      context.stdout.write(`policies that apply: ${applying.map((record) => record.scope).join(', ') || 'none'}\n`);
      if (refusals.length === 0) return context.stdout.write('allowed\n');
      for (const refusal of refusals) context.stdout.write(`${refusal.shadow ? 'would refuse (shadow)' : 'refused'}: ${refusal.reason}\n`);
    });
}

interface TestOptions {
  team: string; key?: string; model?: string; operation: string; provider?: string; maxTokens?: string; home?: string;
  mcpServer?: string; tool?: string; resource?: string; prompt?: string;
}

function modelRefusals(applying: PolicyRecord[], options: TestOptions): PolicyRefusal[] {
  const refusals = evaluateAccess(applying, { model: options.model!, operation: options.operation, maxTokens: options.maxTokens ? Number(options.maxTokens) : null });
  const providerRefusal = options.provider ? refuseProvider(applying, options.provider) : null;
  if (providerRefusal) refusals.push(providerRefusal);
  return refusals;
}

/** The server alone, or one capability of it, named as the policy names it (SERVER__NAME, SERVER__URI). */
function mcpRefusals(applying: PolicyRecord[], server: string, options: TestOptions): PolicyRefusal[] {
  const named = [['tool', options.tool], ['resource', options.resource], ['prompt', options.prompt]].filter(([, name]) => name !== undefined) as Array<[McpCapabilityKind, string]>;
  if (named.length > 1) throw new CliExit(2, 'give one of --tool, --resource and --prompt');
  const [kind, name] = named[0] ?? [null, null];
  return evaluateMcpAccess(applying, server, kind === null ? null : { kind, name: `${server}__${name}` });
}

function readChange(scope: string, options: SetOptions): Partial<PolicyRecord> {
  if (!isPolicyScope(scope)) throw new CliExit(2, `invalid scope "${scope}": use *, team:NAME or key:vk_…`);
  const change: Record<string, unknown> = {};
  if (options.mode !== undefined) {
    if (options.mode !== 'enforce' && options.mode !== 'shadow') throw new CliExit(2, `invalid --mode "${options.mode}": use enforce or shadow`);
    change.mode = options.mode;
  }
  const raw = options as Record<string, string | undefined>;
  for (const [option, field] of LIST_OPTIONS) {
    const text = raw[option];
    if (text !== undefined) change[field] = text.trim() === 'none' ? undefined : text.split(',').map((entry) => entry.trim()).filter(Boolean);
  }
  for (const [option, field, flag] of NUMBER_OPTIONS) {
    const text = raw[option];
    if (text === undefined) continue;
    if (!/^\d+$/.test(text)) throw new CliExit(2, `invalid ${flag.split(' ')[0]} "${text}": use a whole number (0 clears)`);
    change[field] = Number(text) === 0 ? undefined : Number(text);
  }
  if (options.cacheMarker !== undefined) {
    if (!['on', 'off', 'none'].includes(options.cacheMarker)) throw new CliExit(2, `invalid --cache-marker "${options.cacheMarker}": use on, off or none`);
    change.cache_marker = options.cacheMarker === 'none' ? undefined : options.cacheMarker;
  }
  if (Object.keys(change).length === 0) throw new CliExit(2, 'nothing to set: give --mode, --allow-models, --rpm, …');
  return change;
}

function describe(record: PolicyRecord): string {
  const parts: string[] = [];
  for (const [, field] of LIST_OPTIONS) {
    const value = record[field] as string[] | undefined;
    if (value !== undefined) parts.push(`${field}=${value.join(',') || '(none)'}`);
  }
  for (const [, field] of NUMBER_OPTIONS) if (record[field] !== undefined) parts.push(`${field}=${String(record[field])}`);
  if (record.cache_marker !== undefined) parts.push(`cache_marker=${record.cache_marker}`);
  return parts.join(' ') || '(no rules)';
}
