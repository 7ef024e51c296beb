// What each dialect folder (src/formats/<dialect>/) provides, as one object its
// index.ts exports. Pure: no I/O, no clock or randomness except through `ids`.
import type { CanonicalError, CanonicalResponse, StreamPart } from './response.js';
import type { CanonicalRequest } from './request.js';
import type { Usage } from './usage.js';

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

/** A stream part and the choice (OpenAI's `choices[].index`, GenAI's candidate) it belongs to. */
export interface OutputPart {
  choice: number;
  part: StreamPart;
}

/**
 * What the client will read from a stream of this dialect, as canonical parts for every choice
 * (the stream decoder reads the first only): output DLP scans a same-format stream with it.
 */
export interface OutputPartReader {
  push(event: WireEvent): OutputPart[];
  end(): OutputPart[];
}

export interface StreamEncoder {
  /** Canonical parts in, the client dialect's SSE text out (possibly empty). */
  push(part: StreamPart): string;
  /** Everything needed to close the stream properly (e.g. `data: [DONE]`, message_stop). */
  end(): string;
}

/** A stream encoder whose output is bytes (Bedrock's AWS event-stream frames), not SSE text. */
export interface BinaryStreamEncoder extends StreamEncoder {
  pushBytes(part: StreamPart): Uint8Array;
  endBytes(): Uint8Array;
}

/** The capability check relays use instead of asking which dialect it is. */
export function isBinaryStreamEncoder(encoder: StreamEncoder): encoder is BinaryStreamEncoder {
  return typeof (encoder as Partial<BinaryStreamEncoder>).pushBytes === 'function';
}

/**
 * An error as every dialect's error encoder takes it: a provider's error decoded to canonical
 * form, or a gw error (src/errors.ts GatewayError has this shape, so formats need not import it).
 */
export interface WireErrorInput extends CanonicalError {
  /** gw's catalog code (`GW_ERR_…`); absent for a provider's error re-encoded for another dialect. */
  code?: string;
  /** The request field the error is about (OpenAI's `param`). */
  param?: string | undefined;
  /** Extra response headers (retry-after, www-authenticate). */
  headers?: Record<string, string>;
}

/** What a dialect's error encoder returns: a status, the response headers and the JSON body. */
export interface WireError {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** What a relay knows of a stream it is cutting short, for dialects whose error event refers back to it. */
export interface StreamErrorContext {
  /** Events already sent to the client (Responses numbers its events from 0 with sequence_number). */
  eventsSent?: number;
}

/** Reads usage from a stream's events as they pass, without changing them. */
export interface StreamUsageReader {
  /**
   * One event's data. Only data that can carry usage is parsed (a substring test first, so a long
   * stream costs one JSON.parse per usage event, not per token); the parsed object is returned then.
   */
  read(data: string): Record<string, unknown> | undefined;
  /** The usage seen so far, combined as the dialect reports it (Anthropic: input first, output last). */
  usage(): Usage | undefined;
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
  /** Either side: a stream of this dialect read as every choice's parts (output DLP of a same-format stream). */
  createOutputPartReader(): OutputPartReader;
  /** Client side: canonical parts → the client's stream. `model` is the name the client asked for. */
  createStreamEncoder(options: { model: string; context: CodecContext }): StreamEncoder;
  /** Provider side: a provider error body → canonical, so it can be re-encoded in the client's shape. */
  decodeError(status: number, body: unknown): CanonicalError;
  /** How this dialect's streams are framed: SSE text, or AWS event-stream binary frames (Bedrock). */
  streamFraming: 'sse' | 'aws-event-stream';
  /** Client side: an error before the first byte, as this dialect's status, headers and JSON body. */
  encodeError(error: WireErrorInput): WireError;
  /** Client side: an error after the first byte, as this dialect's in-stream error (the stream ends after it). */
  encodeStreamError(error: WireErrorInput, stream?: StreamErrorContext): string | Uint8Array;
  /** Usage in one whole JSON response of this dialect; undefined when it carries none. */
  readUsage(body: unknown): Usage | undefined;
  /** Usage in this dialect's stream events, one reader per stream. */
  createStreamUsageReader(): StreamUsageReader;
  /** Whether this event is the one that ends a complete stream of this dialect (Codex hangs up right after it). */
  isTerminalEvent(event: WireEvent): boolean;
}
