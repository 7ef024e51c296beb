// Where each first-party provider lives when no base URL is given: the same
// defaults as the providers' own SDKs.
import type { ProviderKind } from './provider-adapter.js';

export const DEFAULT_BASE_URLS: Partial<Record<ProviderKind, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com',
  cohere: 'https://api.cohere.com',
  jina: 'https://api.jina.ai/v1',
  voyage: 'https://api.voyageai.com/v1',
  mistral: 'https://api.mistral.ai/v1',
};
