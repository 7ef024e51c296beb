// What `gw providers add` says the new provider will take: always `name/MODEL`, and the
// bare well-known names (gpt-5, claude-…, gemini-…) only when it is the vendor's own API or
// an admin listed them with --takes (docs/decisions.md, "Well-known names go to their vendor").
// When it takes names that another provider answered, it says so: the route would change silently
// otherwise. Worked out with the gateway's own resolveModel over the providers before and after.
import { resolveProviders } from '../../config/resolve-providers.js';
import { resolveModel } from '../../routing/resolve-model.js';
import { PREFIX_RULES } from '../../routing/well-known-models.js';
import type { ProviderConfig } from '../../providers/provider-adapter.js';
import type { ProviderRecord } from '../../state/schema.js';
import { CliExit } from '../cli-context.js';

/** A name each rule matches: `gpt-` → `gpt-x`, `o3` → `o3`. */
function sampleOf(label: string): string {
  return label.endsWith('-') ? `${label}x` : label;
}

/** `gpt-` → `gpt-…` as printed. */
function shown(label: string): string {
  return label.endsWith('-') ? `${label}…` : label;
}

/** `gpt-` → `gpt-*` as --takes takes it. */
function asTakes(label: string): string {
  return label.endsWith('-') ? `${label}*` : label;
}

/** --takes `gpt-*,o3` → the rule labels `gpt-`, `o3`; `none` → none. */
export function readTakes(value: string): string[] {
  if (value.trim() === 'none') return [];
  const labels = value.split(',').map((part) => part.trim()).filter((part) => part !== '').map((part) => part.replace(/\*$/, ''));
  const known = PREFIX_RULES.map((rule) => rule.label);
  const unknown = labels.filter((label) => !known.includes(label));
  if (unknown.length > 0 || labels.length === 0) {
    throw new CliExit(2, `invalid --takes "${value}": a comma-separated list of ${known.map(asTakes).join(', ')}, or none`);
  }
  return [...new Set(labels)];
}

/** The hub a sidecar forwards to (gw login, GW_TOKEN): it answers what no local provider takes, as in gateway-mode.ts. */
export interface TakeoverContext { env: NodeJS.ProcessEnv; hub: string | null }

function answeredBy(model: string, records: readonly ProviderRecord[], where: TakeoverContext): string | null {
  const local = resolveProviders({ env: where.env, state: { providers: records }, ignoreEnvironmentProviders: where.hub !== null }).providers;
  const hub: ProviderConfig[] = where.hub === null ? [] : [{ name: 'hub', kind: 'gateway', baseUrl: where.hub, apiKey: null, source: 'built-in' }];
  try {
    return resolveModel(model, [...local, ...hub], {}).provider.name;
  } catch {
    return null;
  }
}

export interface ProviderTakes {
  /** One line: what the new provider answers. */
  takes: string;
  /** One line per provider that loses names to it; empty when none change hands. */
  takeover: string[];
}

export function describeTakes(before: readonly ProviderRecord[], added: ProviderRecord, where: TakeoverContext): ProviderTakes {
  const after = [...before.filter((record) => record.name !== added.name), added];
  const lost = new Map<string, string[]>();
  const taken: string[] = [];
  const declined: string[] = [];
  for (const rule of PREFIX_RULES) {
    const sample = sampleOf(rule.label);
    if (answeredBy(sample, after, where) !== added.name) {
      if (rule.kind === added.kind) declined.push(rule.label);
      continue;
    }
    taken.push(rule.label);
    const was = answeredBy(sample, before, where);
    if (was !== null && was !== added.name) lost.set(was, [...(lost.get(was) ?? []), shown(rule.label)]);
  }
  const takeover = [...lost].map(([was, labels]) => `model names ${labels.join(', ')} now route to ${added.name} instead of ${was === 'hub' ? 'the hub' : was}: `
    + `${was === 'hub' ? '' : `name them ${was}/MODEL to keep them there, or `}add ${added.name} with --takes none (it then answers only ${added.name}/MODEL)`);
  return { takes: describeTaken(added.name, taken, declined), takeover };
}

function describeTaken(name: string, taken: readonly string[], declined: readonly string[]): string {
  if (taken.length > 0) return `${name} takes ${name}/MODEL and the bare model names ${taken.map(shown).join(', ')}`;
  const optIn = declined.length === 0 ? '' : `; bare ${declined.map(shown).join(', ')} names stay where they were (to give them to ${name}: --takes '${declined.map(asTakes).join(',')}')`;
  return `${name} takes ${name}/MODEL only${optIn}`;
}
