// A provider's Messages event stream → canonical parts.
// https://docs.anthropic.com/en/api/messages-streaming
// Canonical indexes count only blocks with a canonical form (server tool blocks are skipped),
// so they stay dense; usage from message_start and message_delta is merged, later values win.
import type { StreamDecoder, WireEvent } from '../../canonical/codec.js';
import type { FinishReason, StreamPart } from '../../canonical/response.js';
import type { Usage } from '../../canonical/usage.js';
import { decodeAnthropicError } from './decode-error.js';
import { mapAnthropicStopReason } from './map-finish-reason.js';
import { mapAnthropicUsage, mergeUsage } from './map-usage.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';
import { fromSafeToolId } from '../shared/safe-tool-id.js';

type BlockKind = 'text' | 'tool-call' | 'reasoning';

export function createAnthropicStreamDecoder(): StreamDecoder {
  return new AnthropicStreamDecoder();
}

class AnthropicStreamDecoder implements StreamDecoder {
  /** Anthropic block index → canonical block. */
  private readonly blocks = new Map<number, { kind: BlockKind; index: number }>();
  private nextIndex = 0;
  private usage: Usage | undefined;
  private finishReason: FinishReason | undefined;
  private done = false;

  push(event: WireEvent): StreamPart[] {
    if (this.done) return [];
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      return [];
    }
    if (!isPlainObject(data)) return [];
    switch (data.type) {
      case 'message_start': return this.start(isPlainObject(data.message) ? data.message : {});
      case 'content_block_start': return this.startBlock(data);
      case 'content_block_delta': return this.delta(data);
      case 'content_block_stop': return this.stopBlock(data);
      case 'message_delta':
        if (isPlainObject(data.delta) && data.delta.stop_reason !== null && data.delta.stop_reason !== undefined) {
          this.finishReason = mapAnthropicStopReason(data.delta.stop_reason);
        }
        this.usage = mergeUsage(this.usage, mapAnthropicUsage(data.usage));
        return [];
      case 'message_stop': return this.finish();
      case 'error':
        this.done = true;
        return [...this.closeAll(), { type: 'error', error: decodeAnthropicError(0, data) }];
      default: return []; // ping, and event types added later (clients must ignore unknown ones)
    }
  }

  end(): StreamPart[] {
    if (this.done) return [];
    // A stream cut before message_stop: finish only if the stop reason already came.
    return this.finishReason ? this.finish() : this.closeAll();
  }

  private start(message: JsonRecord): StreamPart[] {
    this.usage = mapAnthropicUsage(message.usage);
    return [{ type: 'response-start', id: String(message.id ?? ''), model: String(message.model ?? '') }];
  }

  private startBlock(data: JsonRecord): StreamPart[] {
    const block = isPlainObject(data.content_block) ? data.content_block : {};
    const wireIndex = Number(data.index);
    const kind = blockKind(block.type);
    if (!kind) return [];
    const index = this.nextIndex++;
    this.blocks.set(wireIndex, { kind, index });
    if (kind === 'tool-call') return [{ type: 'tool-call-start', index, id: fromSafeToolId(String(block.id ?? '')), name: String(block.name ?? '') }];
    if (kind === 'text') {
      const text = typeof block.text === 'string' ? block.text : '';
      return [{ type: 'text-start', index }, ...(text === '' ? [] : [{ type: 'text-delta' as const, index, delta: text }])];
    }
    const parts: StreamPart[] = [{ type: 'reasoning-start', index }];
    if (block.type === 'redacted_thinking') parts.push({ type: 'reasoning-opaque', index, redacted: String(block.data ?? '') });
    else if (typeof block.thinking === 'string' && block.thinking !== '') parts.push({ type: 'reasoning-delta', index, delta: block.thinking });
    return parts;
  }

  private delta(data: JsonRecord): StreamPart[] {
    const block = this.blocks.get(Number(data.index));
    const delta = isPlainObject(data.delta) ? data.delta : {};
    if (!block) return [];
    const { index } = block;
    switch (delta.type) {
      case 'text_delta': return [{ type: 'text-delta', index, delta: String(delta.text ?? '') }];
      case 'input_json_delta': {
        const fragment = String(delta.partial_json ?? '');
        return fragment === '' ? [] : [{ type: 'tool-call-delta', index, argumentsDelta: fragment }];
      }
      case 'thinking_delta': return [{ type: 'reasoning-delta', index, delta: String(delta.thinking ?? '') }];
      case 'signature_delta': return [{ type: 'reasoning-opaque', index, signature: String(delta.signature ?? '') }];
      default: return []; // citations_delta has no canonical form
    }
  }

  private stopBlock(data: JsonRecord): StreamPart[] {
    const wireIndex = Number(data.index);
    const block = this.blocks.get(wireIndex);
    if (!block) return [];
    this.blocks.delete(wireIndex);
    return [{ type: `${block.kind}-end`, index: block.index }];
  }

  private closeAll(): StreamPart[] {
    const parts: StreamPart[] = [];
    for (const block of this.blocks.values()) parts.push({ type: `${block.kind}-end`, index: block.index });
    this.blocks.clear();
    return parts;
  }

  private finish(): StreamPart[] {
    this.done = true;
    const parts = this.closeAll();
    parts.push({ type: 'finish', finishReason: this.finishReason ?? { unified: 'other' }, usage: this.usage ?? {} });
    return parts;
  }
}

function blockKind(type: unknown): BlockKind | undefined {
  if (type === 'text') return 'text';
  if (type === 'tool_use') return 'tool-call';
  if (type === 'thinking' || type === 'redacted_thinking') return 'reasoning';
  return undefined;
}
