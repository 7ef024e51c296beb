// What each dialect folder (src/formats/<dialect>/) provides, as one object its
// index.ts exports. Pure: no I/O, no clock or randomness except through `ids`.
import type { CanonicalError, CanonicalResponse, StreamPart } from './response.js';
import type { CanonicalRequest } from './request.js';

/** Something one side could not express: dropped on purpose, counted, audited, listed in the README. */
export interface TranslationWarning {
  /** Stable code, e.g. `dropped:logprobs`, `dropped:tool:web_search`, `mapped:tool_choice`. */
  code: string;
  detail?: string;
}

export interface Decoded<T> {
  value: T;
  warnings: TranslationWarning[];
}

/** An SSE event as src/streaming decodes it. */
export interface WireEvent {
  event?: string;
  data: string;
}

export interface StreamDecoder {
  /** One upstream event in, canonical parts out. */
  push(event: WireEvent): StreamPart[];
  /** The upstream ended; closes any open blocks. */
  end(): StreamPart[];
}

export interface StreamEncoder {
  /** Canonical parts in, the client dialect's SSE text out (possibly empty). */
  push(part: StreamPart): string;
  /** Everything needed to close the stream properly (e.g. `data: [DONE]`, message_stop). */
  end(): string;
}

export interface CodecContext {
  /** Fresh ids for messages, tool calls, responses (injected: pure code takes no randomness). */
  ids: () => string;
  /** Seconds since the epoch, for `created` fields. */
  now: () => number;
  /** The client's own request, decoded: lets the client's encoder restore what only its dialect
   *  knows (Codex's namespaced tools, flattened to `<namespace>__<name>` on the way in). */
  request?: CanonicalRequest;
}

export interface DialectCodec {
  name: 'openai-chat' | 'openai-completions' | 'openai-responses' | 'anthropic-messages' | 'google-genai' | 'bedrock-converse';
  /** Client side: the client's request body → canonical. Throws GatewayError for an invalid body. */
  decodeRequest(body: unknown, options: { model: string; stream: boolean }): Decoded<CanonicalRequest>;
  /** Provider side: canonical → the provider's request body. */
  encodeRequest(request: CanonicalRequest): Decoded<Record<string, unknown>>;
  /** Provider side: the provider's JSON response → canonical. */
  decodeResponse(body: unknown): Decoded<CanonicalResponse>;
  /** Client side: canonical → the client's JSON response. */
  encodeResponse(response: CanonicalResponse, context: CodecContext): Record<string, unknown>;
  /** Provider side: the provider's stream → canonical parts. */
  createStreamDecoder(): StreamDecoder;
  /** Client side: canonical parts → the client's stream. `model` is the name the client asked for. */
  createStreamEncoder(options: { model: string; context: CodecContext }): StreamEncoder;
  /** Provider side: a provider error body → canonical, so it can be re-encoded in the client's shape. */
  decodeError(status: number, body: unknown): CanonicalError;
}
