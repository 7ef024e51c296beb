// gw's provider kinds → the provider ids of @pydantic/genai-prices. An OpenAI-compatible
// preset is priced under its own id when the dataset knows it (groq, deepseek, together…);
// self-hosted ones (ollama, vllm) are not in it: `gw prices set` gives them a price.
// https://github.com/pydantic/genai-prices/tree/main/prices/providers

const BY_KIND: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'google',
  azure: 'azure',
  bedrock: 'aws',
  // Claude on Microsoft Foundry is billed at Anthropic's standard API prices.
  foundry: 'anthropic',
  // The dataset's google provider prices Vertex AI's ids too: Gemini, and Claude with its @version.
  vertex: 'google',
  mistral: 'mistral',
  cohere: 'cohere',
  voyage: 'voyage',
};

/** The dataset's names for gw's provider names, when a `provider/model` is priced through another gw. */
const BY_NAME: Readonly<Record<string, string>> = { ...BY_KIND, google: 'google', groq: 'groq', deepseek: 'deepseek', together: 'together', xai: 'x-ai', openrouter: 'openrouter', fireworks: 'fireworks', perplexity: 'perplexity', cerebras: 'cerebras' };

export interface PricedTarget {
  /** gw's provider instance name (the `provider` of `provider/model`); overrides are keyed by it. */
  provider: string;
  kind: string;
  preset?: string;
  /** The model the provider was asked for. */
  model: string;
}

/** Which dataset provider and model to price; null when the dataset cannot know (mock, self-hosted). */
export function datasetIdFor(target: PricedTarget): { providerId?: string; model: string } | null {
  const byKind = BY_KIND[target.kind];
  if (byKind) return { providerId: byKind, model: target.model };
  if (target.kind === 'openai-compatible' && target.preset && BY_NAME[target.preset]) return { providerId: BY_NAME[target.preset]!, model: target.model };
  // Another gw (a sidecar's hub): the model is `provider/model` on the far side.
  if (target.kind === 'gateway') {
    const slash = target.model.indexOf('/');
    const providerId = slash > 0 ? BY_NAME[target.model.slice(0, slash)] : undefined;
    if (providerId) return { providerId, model: target.model.slice(slash + 1) };
    // A bare model name (a sidecar's `gpt-4o` routed by its hub): the dataset provider whose
    // models match the name. The hub's own price, when it sends one, comes first (price-call.ts).
    if (slash < 0) return { model: target.model };
  }
  return null;
}
