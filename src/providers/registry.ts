// The only file that imports every provider adapter (CONVENTIONS.md, "Which way imports run").
import { anthropicAdapter } from './anthropic/adapter.js';
import { cohereAdapter } from './cohere/adapter.js';
import { jinaAdapter } from './jina/adapter.js';
import { mistralAdapter } from './mistral/adapter.js';
import { voyageAdapter } from './voyage/adapter.js';
import { azureAdapter } from './azure/adapter.js';
import { bedrockAdapter } from './bedrock/adapter.js';
import { foundryAdapter } from './foundry/adapter.js';
import { gatewayAdapter } from './gateway/adapter.js';
import { geminiAdapter } from './gemini/adapter.js';
import { mockAdapter } from './mock/adapter.js';
import { openAiCompatibleAdapter } from './openai-compatible/adapter.js';
import { openAiAdapter } from './openai/adapter.js';
import { vertexAdapter } from './vertex/adapter.js';
import type { ProviderAdapter, ProviderConfig, ProviderKind } from './provider-adapter.js';

const ADAPTERS: Record<ProviderKind, ProviderAdapter> = {
  openai: openAiAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  azure: azureAdapter,
  'openai-compatible': openAiCompatibleAdapter,
  gateway: gatewayAdapter,
  mock: mockAdapter,
  cohere: cohereAdapter,
  jina: jinaAdapter,
  voyage: voyageAdapter,
  mistral: mistralAdapter,
  bedrock: bedrockAdapter,
  foundry: foundryAdapter,
  vertex: vertexAdapter,
};

export const PROVIDER_KINDS = Object.keys(ADAPTERS) as ProviderKind[];

export function adapterFor(kind: ProviderKind): ProviderAdapter {
  return ADAPTERS[kind];
}

/** The adapter for one model of a provider: most serve every model alike, Vertex by its publisher (forModel). */
export function adapterForModel(provider: ProviderConfig, model: string | null): ProviderAdapter {
  const adapter = ADAPTERS[provider.kind];
  return model === null || adapter.forModel === undefined ? adapter : adapter.forModel(model);
}

export function isProviderKind(value: string): value is ProviderKind {
  return Object.hasOwn(ADAPTERS, value);
}
