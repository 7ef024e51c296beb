// The one interface every provider folder implements: where its API lives, how it
// authenticates, and its quirks. A provider never imports another provider; only
// registry.ts imports them all. No I/O here: the upstream client does the calling.
import type { UpstreamOperation, WireDialect } from '../canonical/dialect.js';

export type ProviderKind = 'openai' | 'anthropic' | 'gemini' | 'azure' | 'openai-compatible' | 'gateway' | 'mock'
  | 'cohere' | 'jina' | 'voyage' | 'mistral' | 'bedrock' | 'foundry' | 'vertex';

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
  /** Bedrock with SigV4: the region and credentials each request is signed with (never logged). */
  aws?: { region: string; credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } };
  /**
   * Vertex AI: the Google Cloud project and location (a region, or `global`) in every path, and the
   * credentials file exchanged for short-lived access tokens (null: Application Default Credentials).
   */
  google?: { project: string; location: string; credentialsFile: string | null };
  /** Where baseUrl came from, for messages: an environment variable name, `state.json`, or `default`. */
  baseUrlFrom?: string;
  /** Where apiKey came from, for `gw providers list`: `env:NAME` or `state.json`. Never the key itself. */
  apiKeyFrom?: string;
  /** Well-known prefixes (PREFIX_RULES labels: `gpt-`, `o3`) an admin gave this instance with `--takes`. */
  takes?: readonly string[];
}

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
  /** For resource operations: the path under the API root, ids encoded (`/files/file-1/content`). */
  resourcePath?: string;
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
  /** Rerank providers: gw's Cohere-like rerank body to the provider's wire format and back. */
  rerank?: RerankMapper;
  /** Its model catalog already names models the way gw routes them (another gw, the mock): listed as they are. */
  catalogIdsRoute?: boolean;
  /**
   * A provider serving models of several dialects (Vertex AI: Claude in Anthropic's, Gemini in
   * Google's) gives the adapter for one model; the pipeline asks through adapterForModel (registry.ts).
   */
  forModel?(model: string): ProviderAdapter;
  /** The provider's last word on a JSON body gw sends for `call` (Claude on Vertex: its own `anthropic_version`, the model only in the path). */
  finishBody?(body: Record<string, unknown>, call: UpstreamCall): Record<string, unknown>;
  /** Another gw: it reads gw's hop count (x-gw-hops), which no other provider is sent. */
  countsHops?: boolean;
}

/** gw's rerank request (Cohere-like, src/providers/rerank-wire.ts) ⇄ one provider's format. */
export interface RerankMapper {
  encodeRequest(request: RerankRequest): Record<string, unknown>;
  decodeResponse(body: unknown, request: RerankRequest): RerankResponse;
}

export interface RerankRequest {
  model: string;
  query: string;
  documents: string[];
  top_n?: number;
  return_documents?: boolean;
}

export interface RerankResponse {
  id?: string;
  model?: string;
  results: Array<{ index: number; relevance_score: number; document?: { text: string } }>;
  usage?: { total_tokens?: number; search_units?: number };
}
