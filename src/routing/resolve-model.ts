// Model name → provider instance and the model name the provider knows
// (DESIGN.md, "Model names"). Pure: the providers and aliases are passed in.
// Order: `provider/model` for a configured instance (mock always), then aliases,
// then well-known prefixes, then a configured gateway (the hub resolves the rest).
import { GatewayError } from '../errors.js';
import type { ProviderConfig } from '../providers/provider-adapter.js';
import { DEFAULT_BASE_URLS } from '../providers/default-base-urls.js';
import { HOW_TO_CONFIGURE, PREFIX_RULES, describePrefixRules, howToConfigureName, type PrefixRule, type WellKnownKind } from './well-known-models.js';

export interface ModelRoute {
  provider: ProviderConfig;
  /** The name without gw's `provider/` prefix or alias. */
  upstreamModel: string;
}

const BUILT_IN_MOCK: ProviderConfig = { name: 'mock', kind: 'mock', baseUrl: 'mock:', apiKey: null, source: 'built-in' };

export function resolveModel(model: string, providers: readonly ProviderConfig[], aliases: Readonly<Record<string, string>>): ModelRoute {
  const named = routeByProviderName(model, providers);
  if (named !== null) return named;
  if (Object.hasOwn(aliases, model)) return routeAlias(model, aliases[model] ?? '', providers);
  const rule = PREFIX_RULES.find((candidate) => candidate.matches(model));
  const gateway = providers.find((provider) => provider.kind === 'gateway');
  if (rule !== undefined) {
    const provider = providers.find((candidate) => candidate.takes?.includes(rule.label) === true) ?? findProviderForKind(rule.kind, providers) ?? gateway;
    if (provider !== undefined) return { provider, upstreamModel: model };
    throw notFound(`Model "${model}" needs the ${rule.kind} provider, which is not configured: ${HOW_TO_CONFIGURE[rule.kind]}, ` +
      `or add one with gw providers add NAME --kind ${rule.kind}. ${describeOptIn(model, rule, providers)}${describeNaming(providers, aliases)}`);
  }
  // Sidecar mode: whatever this gw cannot place, the hub may (DESIGN.md, "Modes").
  if (gateway !== undefined) return { provider: gateway, upstreamModel: model };
  throw notFound(`Unknown model "${model}". ${explainPrefix(model, providers)}${describeNaming(providers, aliases)}`);
}

/** `name/rest` where name is a configured instance; `mock/…` always. */
function routeByProviderName(model: string, providers: readonly ProviderConfig[]): ModelRoute | null {
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1) return null;
  const name = model.slice(0, slash);
  const upstreamModel = model.slice(slash + 1);
  const provider = providers.find((candidate) => candidate.name === name) ?? (name === 'mock' ? BUILT_IN_MOCK : undefined);
  return provider === undefined ? null : { provider, upstreamModel };
}

// An alias names `provider/model` and is resolved once: no alias chains, so no loops.
function routeAlias(alias: string, target: string, providers: readonly ProviderConfig[]): ModelRoute {
  const route = routeByProviderName(target, providers);
  if (route !== null) return route;
  const provider = target.slice(0, Math.max(target.indexOf('/'), 0));
  throw notFound(`Alias "${alias}" points at "${target}", but provider "${provider}" is not configured` +
    `${hintFor(provider)}. Configured providers: ${listNames(providers)}.`);
}

/**
 * The first instance of the vendor, else an instance the environment names after it (OPENAI_BASE_URL
 * alone configures a keyless `openai` of kind openai-compatible). OpenAI's names
 * also go to Azure OpenAI, whose deployments are usually named after the model; Claude's go to
 * Claude on Microsoft Foundry, whose deployments are named after the model by default.
 */
function findProviderForKind(kind: WellKnownKind, providers: readonly ProviderConfig[]): ProviderConfig | undefined {
  return providers.find((provider) => isVendorInstance(provider, kind))
    ?? providers.find((provider) => provider.name === kind && provider.source === 'environment')
    ?? (kind === 'openai' ? providers.find((provider) => provider.kind === 'azure') : undefined)
    ?? (kind === 'anthropic' ? providers.find((provider) => provider.kind === 'foundry') : undefined);
}

/**
 * The vendor's own API: configured by its environment variables (the operator named it), or added
 * at the vendor's host. A `--kind openai` added elsewhere (a vLLM) takes only what its `takes` lists
 * (docs/decisions.md, "Well-known names go to their vendor").
 */
function isVendorInstance(provider: ProviderConfig, kind: WellKnownKind): boolean {
  if (provider.kind !== kind) return false;
  if (provider.source !== 'state') return true;
  return provider.takes === undefined && hostOf(provider.baseUrl) === hostOf(DEFAULT_BASE_URLS[kind] ?? '');
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

/** A provider of the kind that answers only `name/MODEL` (added elsewhere than the vendor): how to use it. */
function describeOptIn(model: string, rule: PrefixRule, providers: readonly ProviderConfig[]): string {
  const other = providers.find((provider) => provider.kind === rule.kind);
  if (other === undefined) return '';
  const pattern = rule.label.endsWith('-') ? `${rule.label}*` : rule.label;
  return `Provider ${other.name} (${other.kind}, not the vendor's URL) answers only ${other.name}/MODEL: call ${other.name}/${model}, ` +
    `or give it these names (gw providers remove ${other.name}, then add it again with --takes '${pattern}'). `;
}

function explainPrefix(model: string, providers: readonly ProviderConfig[]): string {
  const slash = model.indexOf('/');
  if (slash <= 0) return '';
  const name = model.slice(0, slash);
  if (providers.some((provider) => provider.name === name)) return `Name a model after "${name}/". `;
  const hint = howToConfigureName(name);
  return hint === null ? `No provider is named "${name}". ` : `Provider "${name}" is not configured: ${hint}. `;
}

function describeNaming(providers: readonly ProviderConfig[], aliases: Readonly<Record<string, string>>): string {
  const aliasNames = Object.keys(aliases).sort();
  const aliasText = aliasNames.length === 0 ? 'an alias (none configured)' : `an alias (${aliasNames.join(', ')})`;
  return `Name it as provider/model (configured providers: ${listNames(providers)}), use ${aliasText}, ` +
    `or a well-known prefix: ${describePrefixRules()}.`;
}

function listNames(providers: readonly ProviderConfig[]): string {
  const names = new Set(['mock', ...providers.map((provider) => provider.name)]);
  return [...names].sort().join(', ');
}

function hintFor(name: string): string {
  const hint = howToConfigureName(name);
  return hint === null ? '' : ` (${hint})`;
}

function notFound(message: string): GatewayError {
  return new GatewayError('GW_ERR_MODEL_NOT_FOUND', { message });
}
