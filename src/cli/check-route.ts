// Before gw run launches a tool at a model: does the provider that model routes to answer
// at all? A tool meeting 502s retries quietly for a minute and more; gw run says at once
// which provider and URL do not answer. One model-list GET (what gw providers test sends),
// only for a model the run names, only for a plain route (no rule, mock or hub).
import { resolveProviders } from '../config/resolve-providers.js';
import { maskUrlCredentials } from '../mask-url-credentials.js';
import { resolveModel } from '../routing/resolve-model.js';
import type { StateData } from '../state/schema.js';
import { GatewayError } from '../errors.js';
import { CliExit } from './cli-context.js';
import { shellCommand } from '../shell-quote.js';
import { testProvider } from './commands/provider-test.js';

const PROBE_MS = 5_000;

/** The model the tool's own arguments name (--model X, -m X, --model=X; opencode's gw/X). */
export function modelInArgs(args: readonly string[]): string | null {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg.startsWith('--model=')) return arg.slice('--model='.length);
    if ((arg === '--model' || arg === '-m') && args[index + 1] !== undefined) return args[index + 1]!.replace(/^gw\//, '');
  }
  return null;
}

/**
 * Throws with the provider and its URL when `model` routes to one that gives no response.
 * `served`: the providers the running gateway reports (/health); when it has one this shell
 * cannot see (its own environment's), the route cannot be worked out here, so nothing is said.
 */
export async function checkRouteAnswers(model: string, state: StateData, env: NodeJS.ProcessEnv, served: readonly string[]): Promise<void> {
  if ((state.routes ?? []).some((rule) => rule.name === model)) return;
  const providers = resolveProviders({ env, state }).providers.filter((candidate) => served.includes(candidate.name));
  if (served.some((name) => name !== 'mock' && !providers.some((candidate) => candidate.name === name))) return;
  let provider;
  try {
    provider = resolveModel(model, providers, state.aliases).provider;
  } catch {
    return; // the gateway's own answer (unknown model, not configured) reaches the tool at once
  }
  if (provider.kind === 'mock' || provider.kind === 'gateway') return;
  const probe = await testProvider(provider, PROBE_MS);
  if (probe.ok || !probe.text.includes(': no response')) return;
  throw new CliExit(1, `${model} routes to provider ${provider.name} (${maskUrlCredentials(provider.baseUrl)}), which does not answer: ${probe.text}. `
    + `Start it, or check it with gw providers test ${provider.name}; gw run did not start the tool.`);
}

/**
 * What each tool asks for when no model is named: its own default. Routing goes by the vendor's
 * prefix (claude-*, gpt-*, gemini-*), so one model of the family stands for whichever default the
 * installed version has (Claude Code 2.1 asks for claude-opus-4-8). opencode has none of its own for gw.
 */
const TOOL_DEFAULT_MODELS: Record<string, { label: string; model: string }> = {
  claude: { label: 'Claude Code', model: 'claude-opus-4-8' },
  codex: { label: 'Codex', model: 'gpt-5' },
  gemini: { label: 'Gemini CLI', model: 'gemini-2.5-pro' },
};

/**
 * Throws, in gw's words, when the tool's own default model routes to no provider of this gateway:
 * the tool would hide gw's 404 behind its own message ("There's an issue with the selected model").
 * `served`: a model the gateway serves to suggest instead, asked for only when needed.
 */
export async function checkDefaultModelRoutes(tool: string, state: StateData, env: NodeJS.ProcessEnv, providerNames: readonly string[], served: () => Promise<string | null>): Promise<void> {
  const own = TOOL_DEFAULT_MODELS[tool];
  if (own === undefined) return;
  const providers = resolveProviders({ env, state }).providers.filter((candidate) => providerNames.includes(candidate.name));
  // A provider the gateway has from its own environment is not seen here: its route cannot be worked out.
  if (providerNames.some((name) => name !== 'mock' && !providers.some((candidate) => candidate.name === name))) return;
  try {
    resolveModel(own.model, providers, state.aliases);
    return;
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    const instead = await served();
    throw new CliExit(1, [
      `${own.label} asks for its own default model (${own.model}) unless told otherwise, and this gateway has no route for it: ${error.message}`,
      instead === null ? '' : `Or name a model it serves: ${shellCommand(['gw', 'run', tool, '--model', instead])}`,
      'gw run did not start the tool.',
    ].filter((line) => line !== '').join('\n'));
  }
}
