// Servers that speak OpenAI's API (Ollama, vLLM, llama.cpp server, Groq, Mistral,
// DeepSeek, OpenRouter, Together, Fireworks, xAI: presets.ts). Same paths under the
// preset's base URL (which includes its version segment); Bearer auth, or none
// for keyless local servers. Ollama: https://github.com/ollama/ollama/blob/main/docs/openai.md
import type { ProviderAdapter, ProviderConfig, UpstreamCall } from '../provider-adapter.js';
import type { UpstreamOperation } from '../../canonical/dialect.js';
import { bearerAuth, urlByPathLayout, type PathLayout } from '../provider-http.js';

const PATHS: Partial<Record<UpstreamOperation, string>> = {
  'chat.completions': '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
  'models.list': '/models',
};

// What OpenAI-compatible servers commonly offer beyond chat: the Responses API (vLLM,
// OpenRouter, xAI), speech and images (Groq, LocalAI, vLLM), files and batches (Groq,
// Together, Mistral). A server that lacks one answers 404 itself.
const RESOURCES: ReadonlySet<UpstreamOperation> = new Set<UpstreamOperation>([
  'responses.create', 'responses.retrieve', 'responses.delete', 'responses.cancel', 'responses.input_items',
  'files', 'files.item', 'files.content', 'batches', 'batches.item', 'batches.results', 'batches.cancel',
  'images.generations', 'images.edits', 'images.variations', 'audio.speech', 'audio.transcriptions',
  'audio.translations',
]);

const LAYOUT: PathLayout = { paths: PATHS, resources: RESOURCES };

export const openAiCompatibleAdapter: ProviderAdapter = {
  kind: 'openai-compatible',
  dialect: 'openai',
  urlFor: (config: ProviderConfig, call: UpstreamCall) => urlByPathLayout(config.baseUrl, call, LAYOUT),
  authHeaders: (config) => bearerAuth(config.apiKey),
  defaultHeaders: () => ({}),
  modelInBody: () => true,
};
