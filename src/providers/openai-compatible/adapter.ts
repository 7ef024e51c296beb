// Servers that speak OpenAI's API (Ollama, vLLM, llama.cpp server, Groq, Mistral,
// DeepSeek, OpenRouter, Together, Fireworks, xAI: presets.ts). Same paths under the
// preset's base URL (which includes its version segment); Bearer auth, or none
// for keyless local servers. Ollama: https://github.com/ollama/ollama/blob/main/docs/openai.md
import type { ProviderAdapter, ProviderConfig, UpstreamCall, UpstreamOperation } from '../provider-adapter.js';
import { bearerAuth, joinPassthroughUrl, trimBaseUrl, withQuery } from '../provider-http.js';

const PATHS: Partial<Record<UpstreamOperation, string>> = {
  'chat.completions': '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
  'models.list': '/models',
};

export const openAiCompatibleAdapter: ProviderAdapter = {
  kind: 'openai-compatible',
  dialect: 'openai',
  urlFor(config: ProviderConfig, call: UpstreamCall): string | null {
    if (call.operation === 'passthrough') {
      return call.clientPath === undefined ? null : joinPassthroughUrl(config.baseUrl, call.clientPath);
    }
    const path = PATHS[call.operation];
    return path === undefined ? null : withQuery(`${trimBaseUrl(config.baseUrl)}${path}`, call.query);
  },
  authHeaders: (config) => bearerAuth(config.apiKey),
  defaultHeaders: () => ({}),
  modelInBody: () => true,
};
