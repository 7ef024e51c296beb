// `gw providers test NAME`: the cheapest authenticated request each provider
// has (its model list), so a wrong URL or key shows before the first real call.
import { maskUrlCredentials } from '../../mask-url-credentials.js';
import type { ProviderConfig, UpstreamCall } from '../../providers/provider-adapter.js';
import { adapterFor } from '../../providers/registry.js';
import { probeProvider } from '../../upstream/probe-provider.js';

const MODEL_LIST_CALLS: Record<ProviderConfig['kind'], UpstreamCall> = {
  openai: { operation: 'models.list', model: null, stream: false },
  'openai-compatible': { operation: 'models.list', model: null, stream: false },
  azure: { operation: 'models.list', model: null, stream: false },
  anthropic: { operation: 'models.list.anthropic', model: null, stream: false },
  gemini: { operation: 'genai.models.list', model: null, stream: false },
  // Another gw serves OpenAI's model list to a valid key.
  gateway: { operation: 'models.list', model: null, stream: false, clientPath: '/v1/models' },
  mock: { operation: 'models.list', model: null, stream: false },
  // Bedrock's runtime has no model list (it lives on the control-plane API); the probe reports that.
  bedrock: { operation: 'models.list', model: null, stream: false },
  mistral: { operation: 'models.list', model: null, stream: false },
  // Claude on Foundry has no model list either (the Foundry SDK removes it).
  foundry: { operation: 'models.list.anthropic', model: null, stream: false },
  // Rerank-only providers have no model list: the test says so instead of guessing.
  cohere: { operation: 'models.list', model: null, stream: false },
  jina: { operation: 'models.list', model: null, stream: false },
  voyage: { operation: 'models.list', model: null, stream: false },
  // Vertex AI's publisher models are not listed per project; its token is minted at call time.
  vertex: { operation: 'models.list', model: null, stream: false },
};

const HINTS: Record<number, string> = {
  401: 'the key was refused',
  403: 'the key may not list models',
  404: 'nothing there: check the base URL (OpenAI-style URLs end in /v1)',
};

export async function testProvider(provider: ProviderConfig, timeoutMs: number): Promise<{ ok: boolean; text: string }> {
  if (provider.kind === 'mock') return { ok: true, text: `${provider.name}: built in, answers in-process` };
  const adapter = adapterFor(provider.kind);
  const url = adapter.urlFor(provider, MODEL_LIST_CALLS[provider.kind]);
  if (url === null) return { ok: false, text: `${provider.name}: ${provider.kind} has no model list to test against` };
  const headers = { ...adapter.defaultHeaders(provider), ...adapter.authHeaders(provider) };
  const result = await probeProvider(url, headers, timeoutMs);
  const target = `GET ${maskUrlCredentials(url)}`;
  if (result.status === null) {
    return { ok: false, text: `${provider.name}: no response (${maskUrlCredentials(result.failure ?? 'unknown error')}) after ${result.latencyMs} ms (${target})` };
  }
  const hint = result.ok ? '' : `: ${HINTS[result.status] ?? 'the provider refused the request'}`;
  return { ok: result.ok, text: `${provider.name}: HTTP ${result.status} in ${result.latencyMs} ms (${target})${hint}` };
}
