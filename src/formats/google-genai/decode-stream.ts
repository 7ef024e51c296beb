// `:streamGenerateContent?alt=sse` → canonical parts. Each `data:` is a whole
// GenerateContentResponse with the next parts; a functionCall arrives whole, never as
// partial JSON. No [DONE]: the stream's end is the completion.
// https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
import type { CodecContext, StreamDecoder, WireEvent } from '../../canonical/codec.js';
import type { AssistantPart } from '../../canonical/request.js';
import type { CanonicalError, StreamPart } from '../../canonical/response.js';
import type { Usage } from '../../canonical/usage.js';
import { createCallIdSource } from './decode-response.js';
import { decodeGoogleError } from './decode-error.js';
import { decodeModelPart, type CallIdSource } from './decode-parts.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';
import { mapGoogleFinishReason } from './map-finish-reason.js';
import { mapGoogleUsage } from './map-usage.js';

interface OpenBlock {
  kind: 'text' | 'reasoning';
  index: number;
}

export class GoogleStreamDecoder implements StreamDecoder {
  private started = false;
  private done = false;
  private open: OpenBlock | undefined;
  private nextIndex = 0;
  private hasToolCalls = false;
  private usage: Usage = {};
  private nextId: CallIdSource | undefined;

  constructor(private readonly context?: CodecContext) {}

  push(event: WireEvent): StreamPart[] {
    if (this.done || event.data.trim() === '' || event.data === '[DONE]') return [];
    let chunk: unknown;
    try {
      chunk = JSON.parse(event.data);
    } catch {
      return this.fail({ status: 502, kind: 'api_error', message: 'Gemini sent a stream event that is not JSON.' });
    }
    if (isPlainObject(chunk) && chunk.error !== undefined) return this.fail(decodeGoogleError(0, chunk));
    if (!isPlainObject(chunk)) return [];
    return this.decodeChunk(chunk);
  }

  end(): StreamPart[] {
    if (this.done || !this.started) return [];
    // Ended without a finishReason: the completion is whatever arrived.
    return [...this.close(), this.finish(undefined)];
  }

  private fail(error: CanonicalError): StreamPart[] {
    this.done = true;
    return [...this.close(), { type: 'error', error }];
  }

  /** One chunk already parsed (output DLP's reader gives each candidate its own decoder this way). */
  pushChunk(chunk: JsonRecord): StreamPart[] {
    return this.done ? [] : this.decodeChunk(chunk);
  }

  private decodeChunk(chunk: JsonRecord): StreamPart[] {
    const parts: StreamPart[] = [];
    let nextId = this.nextId;
    if (!this.started || nextId === undefined) {
      this.started = true;
      const id = typeof chunk.responseId === 'string' ? chunk.responseId : '';
      nextId = this.nextId = createCallIdSource(id || 'gemini', this.context);
      parts.push({ type: 'response-start', id, model: typeof chunk.modelVersion === 'string' ? chunk.modelVersion : '' });
    }
    const usage = mapGoogleUsage(chunk.usageMetadata);
    if (usage !== undefined) this.usage = usage;
    // With candidateCount > 1 a translated stream is the first candidate's alone.
    const candidate = firstCandidate(chunk.candidates) ?? {};
    const wireParts = isPlainObject(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
    wireParts.forEach((wirePart, index) => {
      // A malformed part in a provider stream is skipped rather than ending the stream.
      let decoded: AssistantPart[];
      try {
        decoded = decodeModelPart(wirePart, `parts[${index}]`, nextId, []);
      } catch {
        decoded = [];
      }
      for (const part of decoded) parts.push(...this.decodePart(part));
    });
    const blocked = isPlainObject(chunk.promptFeedback) && typeof chunk.promptFeedback.blockReason === 'string' ? chunk.promptFeedback.blockReason : undefined;
    const raw = typeof candidate.finishReason === 'string' ? candidate.finishReason : blocked;
    if (raw !== undefined) parts.push(...this.close(), this.finish(raw));
    return parts;
  }

  private decodePart(part: AssistantPart): StreamPart[] {
    if (part.type === 'tool-call') {
      this.hasToolCalls = true;
      const index = this.nextIndex++;
      return [...this.close(), { type: 'tool-call-start', index, id: part.id, name: part.name },
        { type: 'tool-call-delta', index, argumentsDelta: part.arguments }, { type: 'tool-call-end', index }];
    }
    if (part.type === 'text') {
      const text = this.openBlock('text');
      return [...text.parts, { type: 'text-delta', index: text.index, delta: part.text }];
    }
    // A signature after thoughts belongs to them; alone, it is an empty reasoning block.
    const { parts, index } = this.openBlock('reasoning');
    if (part.text !== '' || part.signature === undefined) parts.push({ type: 'reasoning-delta', index, delta: part.text });
    if (part.signature !== undefined) parts.push({ type: 'reasoning-opaque', index, signature: part.signature, origin: 'google' }, ...this.close());
    return parts;
  }

  /** Opens a block of `kind` unless one is open (closing one of the other kind): the parts that says, and the block's index. */
  private openBlock(kind: OpenBlock['kind']): { parts: StreamPart[]; index: number } {
    if (this.open?.kind === kind) return { parts: [], index: this.open.index };
    const closed = this.close();
    const index = this.nextIndex++;
    this.open = { kind, index };
    return { parts: [...closed, { type: kind === 'text' ? 'text-start' : 'reasoning-start', index }], index };
  }

  private close(): StreamPart[] {
    if (this.open === undefined) return [];
    const { kind, index } = this.open;
    this.open = undefined;
    return [{ type: kind === 'text' ? 'text-end' : 'reasoning-end', index }];
  }

  private finish(raw: string | undefined): StreamPart {
    this.done = true;
    const finishReason = raw === undefined ? { unified: 'other' as const } : mapGoogleFinishReason(raw, this.hasToolCalls);
    return { type: 'finish', finishReason, usage: this.usage };
  }
}

/** The candidate of index 0 (or without an index): a plain loop, this runs on every chunk. */
function firstCandidate(list: unknown): JsonRecord | undefined {
  if (!Array.isArray(list)) return undefined;
  for (const item of list) if (isPlainObject(item) && (item.index ?? 0) === 0) return item;
  return undefined;
}
