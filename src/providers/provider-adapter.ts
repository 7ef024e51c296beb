// The one interface every provider folder implements: where its API lives, how it
// authenticates, and its quirks. A provider never imports another provider; only
// registry.ts imports them all. No I/O here: the upstream client does the calling.

/** The wire formats gw speaks on either side. */
export type WireDialect = 'openai' | 'anthropic' | 'google';

export type ProviderKind = 'openai' | 'anthropic' | 'gemini' | 'azure' | 'openai-compatible' | 'gateway' | 'mock';

/** One configured provider instance, from the environment, the state file, or built in (mock). */
export interface ProviderConfig {
  /** Unique instance name; the `provider` in `provider/model` (openai, anthropic, gemini, azure, ollama, groq, my-vllm, hub, mock…). */
  name: string;
  kind: ProviderKind;
  /** Base URL as the provider's SDK takes it (https://api.openai.com/v1, https://api.anthropic.com, https://generativelanguage.googleapis.com). */
  baseUrl: string;
  /** The resolved secret; never logged, audited or returned. Null for keyless local servers. */
  apiKey: string | null;
  /** Azure OpenAI `api-version`. */
  apiVersion?: string;
  /** openai-compatible preset this instance came from (ollama, vllm, groq…). */
  preset?: string;
  source: 'environment' | 'state' | 'built-in';
  /** Where baseUrl came from, for messages: an environment variable name, `state.json`, or `default`. */
  baseUrlFrom?: string;
  /** Where apiKey came from, for `gw providers list`: `env:NAME` or `state.json`. Never the key itself. */
  apiKeyFrom?: string;
}

/** Operations as the provider's own API names them. */
export type UpstreamOperation =
  | 'chat.completions' | 'completions' | 'embeddings' | 'models.list'
  | 'messages' | 'messages.count_tokens' | 'models.list.anthropic'
  | 'genai.generateContent' | 'genai.streamGenerateContent' | 'genai.countTokens' | 'genai.embedContent'
  | 'genai.batchEmbedContents' | 'genai.models.list'
  | 'passthrough';

/** One call to make upstream, already in the provider's dialect. */
export interface UpstreamCall {
  operation: UpstreamOperation;
  /** The model as the provider knows it (the `provider/` prefix removed); null for list calls. */
  model: string | null;
  stream: boolean;
  /** The path the client called on gw (gateway provider) or the rest of a passthrough path, with its query. */
  clientPath?: string;
  /** Query parameters the upstream must see (Anthropic's `?beta=true`). */
  query?: URLSearchParams;
}

export interface ProviderAdapter {
  kind: ProviderKind;
  /** The dialect it speaks; 'any' for another gw, which serves every dialect itself. */
  dialect: WireDialect | 'any';
  /** Where the call goes; null when this provider does not offer the operation. */
  urlFor(config: ProviderConfig, call: UpstreamCall): string | null;
  /** The provider's credential headers (the client's are stripped before these are added). */
  authHeaders(config: ProviderConfig): Record<string, string>;
  /** Headers the provider requires when the client did not send them (e.g. anthropic-version). */
  defaultHeaders(config: ProviderConfig): Record<string, string>;
  /** Whether the JSON body names the model (OpenAI, Anthropic) or the path does (Google, Azure deployments). */
  modelInBody(config: ProviderConfig): boolean;
}
