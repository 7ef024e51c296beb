// A provider's chat.completion.chunk stream → canonical parts.
// https://platform.openai.com/docs/api-reference/chat-streaming
// Tool calls are keyed by their `index` (not id); arguments arrive in fragments; the finish
// reason comes before the optional usage chunk, so `finish` is emitted at [DONE] or the end.
import type { StreamDecoder, WireEvent } from '../../canonical/codec.js';
import type { FinishReason, StreamPart } from '../../canonical/response.js';
import type { Usage } from '../../canonical/usage.js';
import { decodeOpenAiChatError } from './decode-error.js';
import { mapOpenAiFinishReason } from './map-finish-reason.js';
import { mapOpenAiUsage } from './map-usage.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';

export function createOpenAiChatStreamDecoder(): StreamDecoder {
  return new OpenAiChatStreamDecoder();
}

export class OpenAiChatStreamDecoder implements StreamDecoder {
  private started = false;
  private nextIndex = 0;
  private open: { kind: 'text' | 'reasoning'; index: number } | undefined;
  private readonly tools = new Map<number, number>();
  private readonly openTools = new Set<number>();
  private finishReason: FinishReason | undefined;
  private usage: Usage | undefined;
  private done = false;

  push(event: WireEvent): StreamPart[] {
    if (this.done) return [];
    if (event.data.trim() === '[DONE]') return this.finish();
    let chunk: unknown;
    try {
      chunk = JSON.parse(event.data);
    } catch {
      return []; // a keep-alive or a provider's non-JSON comment line carries nothing
    }
    if (!isPlainObject(chunk)) return [];
    if (chunk.error !== undefined) {
      this.done = true;
      return [...this.closeAll(), { type: 'error', error: decodeOpenAiChatError(0, chunk) }];
    }
    return this.readChunk(chunk);
  }

  end(): StreamPart[] {
    if (this.done) return [];
    // Without [DONE] and without a finish reason the stream was cut: close blocks, claim no finish.
    return this.finishReason ? this.finish() : this.closeAll();
  }

  /** One chunk already parsed (output DLP's reader gives each choice its own decoder this way). */
  pushChunk(chunk: JsonRecord): StreamPart[] {
    return this.done ? [] : this.readChunk(chunk);
  }

  private readChunk(chunk: JsonRecord): StreamPart[] {
    const parts: StreamPart[] = [];
    if (!this.started) {
      this.started = true;
      parts.push({ type: 'response-start', id: String(chunk.id ?? ''), model: String(chunk.model ?? '') });
    }
    const usage = mapOpenAiUsage(chunk.usage);
    if (usage) this.usage = usage;
    // With n > 1 the choices' chunks interleave: a translated stream is the first choice's alone.
    const choice = firstOf(chunk.choices);
    if (!choice) return parts;
    const delta = isPlainObject(choice.delta) ? choice.delta : {};
    const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning;
    if (typeof reasoning === 'string' && reasoning !== '') parts.push(...this.appendText('reasoning', reasoning));
    if (typeof delta.content === 'string' && delta.content !== '') parts.push(...this.appendText('text', delta.content));
    if (typeof delta.refusal === 'string' && delta.refusal !== '') parts.push(...this.appendText('text', delta.refusal));
    if (Array.isArray(delta.tool_calls)) {
      delta.tool_calls.forEach((call, position) => {
        if (isPlainObject(call)) parts.push(...this.appendToolCall(call, position));
      });
    }
    if (typeof choice.finish_reason === 'string') {
      this.finishReason = mapOpenAiFinishReason(choice.finish_reason);
      parts.push(...this.closeAll());
    }
    return parts;
  }

  private appendText(kind: 'text' | 'reasoning', delta: string): StreamPart[] {
    const parts: StreamPart[] = [];
    if (this.open?.kind !== kind) {
      parts.push(...this.closeText());
      this.open = { kind, index: this.nextIndex++ };
      parts.push({ type: `${kind}-start`, index: this.open.index });
    }
    parts.push({ type: `${kind}-delta`, index: this.open.index, delta });
    return parts;
  }

  private appendToolCall(call: JsonRecord, position: number): StreamPart[] {
    const parts: StreamPart[] = [];
    const toolIndex = typeof call.index === 'number' ? call.index : position;
    const fn = isPlainObject(call.function) ? call.function : {};
    let index = this.tools.get(toolIndex);
    if (index === undefined) {
      parts.push(...this.closeText());
      index = this.nextIndex++;
      this.tools.set(toolIndex, index);
      this.openTools.add(index);
      parts.push({ type: 'tool-call-start', index, id: String(call.id ?? ''), name: String(fn.name ?? '') });
    }
    if (typeof fn.arguments === 'string' && fn.arguments !== '') parts.push({ type: 'tool-call-delta', index, argumentsDelta: fn.arguments });
    return parts;
  }

  private closeText(): StreamPart[] {
    if (!this.open) return [];
    const { kind, index } = this.open;
    this.open = undefined;
    return [{ type: `${kind}-end`, index }];
  }

  /** Parallel calls may interleave their fragments, so tool blocks stay open until the finish. */
  private closeAll(): StreamPart[] {
    const parts = this.closeText();
    for (const index of this.openTools) parts.push({ type: 'tool-call-end', index });
    this.openTools.clear();
    return parts;
  }

  private finish(): StreamPart[] {
    this.done = true;
    const parts = this.closeAll();
    parts.push({ type: 'finish', finishReason: this.finishReason ?? { unified: 'other' }, usage: this.usage ?? {} });
    return parts;
  }
}

/** The entry of index 0 (or without an index) of `choices`: a plain loop, this runs on every chunk. */
function firstOf(list: unknown): JsonRecord | undefined {
  if (!Array.isArray(list)) return undefined;
  for (const item of list) if (isPlainObject(item) && (item.index ?? 0) === 0) return item;
  return undefined;
}
