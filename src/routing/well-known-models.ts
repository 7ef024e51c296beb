// Bare model names gw can place without a `provider/` prefix: the providers' own
// naming (https://platform.openai.com/docs/models, https://docs.anthropic.com/en/docs/about-claude/models,
// https://ai.google.dev/gemini-api/docs/models). The first matching rule wins, so
// Gemini's `text-embedding-004` is listed before OpenAI's `text-embedding-`.
import { OPENAI_COMPATIBLE_PRESETS } from '../providers/openai-compatible/presets.js';

export type WellKnownKind = 'openai' | 'anthropic' | 'gemini';

export interface PrefixRule {
  kind: WellKnownKind;
  /** As shown in messages. */
  label: string;
  matches(model: string): boolean;
}

const startsWith = (prefix: string): ((model: string) => boolean) => (model) => model.startsWith(prefix);
// o1, o1-mini, o3-pro, o4-mini… but not `o1x` or `ollama-thing`.
const reasoningSeries = (series: string): ((model: string) => boolean) => (model) => model === series || model.startsWith(`${series}-`);

export const PREFIX_RULES: readonly PrefixRule[] = [
  { kind: 'gemini', label: 'gemini-', matches: startsWith('gemini-') },
  { kind: 'gemini', label: 'text-embedding-004', matches: (model) => model === 'text-embedding-004' },
  { kind: 'openai', label: 'gpt-', matches: startsWith('gpt-') },
  { kind: 'openai', label: 'o1', matches: reasoningSeries('o1') },
  { kind: 'openai', label: 'o3', matches: reasoningSeries('o3') },
  { kind: 'openai', label: 'o4', matches: reasoningSeries('o4') },
  { kind: 'openai', label: 'chatgpt-', matches: startsWith('chatgpt-') },
  { kind: 'openai', label: 'text-embedding-', matches: startsWith('text-embedding-') },
  { kind: 'anthropic', label: 'claude-', matches: startsWith('claude-') },
];

/** What to set so a kind is configured, for the 404 that says it is not. */
export const HOW_TO_CONFIGURE: Record<WellKnownKind, string> = {
  openai: 'set OPENAI_API_KEY (or AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT) where gw serve runs',
  anthropic: 'set ANTHROPIC_API_KEY (or ANTHROPIC_FOUNDRY_API_KEY and ANTHROPIC_FOUNDRY_RESOURCE) where gw serve runs',
  gemini: 'set GEMINI_API_KEY (or GOOGLE_API_KEY) where gw serve runs',
};

/** Names gw configures from the environment, so `groq/x` without GROQ_API_KEY gets a precise hint. */
export function howToConfigureName(name: string): string | null {
  if (name in HOW_TO_CONFIGURE) return HOW_TO_CONFIGURE[name as WellKnownKind];
  if (name === 'azure') return 'set AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT where gw serve runs';
  if (name === 'foundry') return 'set ANTHROPIC_FOUNDRY_API_KEY and ANTHROPIC_FOUNDRY_RESOURCE where gw serve runs';
  const preset = OPENAI_COMPATIBLE_PRESETS.find((entry) => entry.name === name);
  if (preset === undefined) return null;
  return preset.keyless
    ? `set ${preset.baseUrlEnv} where gw serve runs (default ${preset.defaultBaseUrl})`
    : `set ${preset.apiKeyEnv} where gw serve runs`;
}

export function describePrefixRules(): string {
  const byKind = new Map<WellKnownKind, string[]>();
  for (const rule of PREFIX_RULES) byKind.set(rule.kind, [...(byKind.get(rule.kind) ?? []), rule.label]);
  return (['openai', 'anthropic', 'gemini'] as const).map((kind) => `${(byKind.get(kind) ?? []).join('/')} → ${kind}`).join(', ');
}
