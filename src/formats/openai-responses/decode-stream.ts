// Responses SSE → canonical parts. Events are typed (`type` in each payload) and keyed by
// output_index (and content_index / summary_index); canonical blocks get their own indexes.
// https://platform.openai.com/docs/api-reference/responses-streaming
import type { StreamDecoder, WireEvent } from '../../canonical/codec.js';
import type { CanonicalError, StreamPart } from '../../canonical/response.js';
import { decodeResponsesError } from './decode-error.js';
import { NAMESPACE_SEPARATOR } from './decode-input.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';
import { mapResponsesFinishReason } from './map-finish-reason.js';
import { mapResponsesUsage } from './map-usage.js';

interface OpenBlock {
  kind: 'text' | 'reasoning' | 'tool';
  index: number;
  sawDelta: boolean;
}

export class ResponsesStreamDecoder implements StreamDecoder {
  private readonly blocks = new Map<string, OpenBlock>();
  private nextIndex = 0;
  private hasToolCalls = false;
  private started = false;
  private done = false;

  push(event: WireEvent): StreamPart[] {
    if (this.done || event.data.trim() === '' || event.data === '[DONE]') return [];
    let payload: unknown;
    try {
      payload = JSON.parse(event.data);
    } catch {
      return this.fail({ status: 502, kind: 'api_error', message: 'The Responses stream sent an event that is not JSON.' });
    }
    if (!isPlainObject(payload)) return [];
    const type = typeof payload.type === 'string' ? payload.type : event.event ?? '';
    return this.decodeEvent(type, payload);
  }

  end(): StreamPart[] {
    if (this.done) return [];
    // Codex and the SDK treat a stream without response.completed as failed; so does gw.
    return this.fail({ status: 502, kind: 'api_error', message: 'The Responses stream ended before response.completed.' });
  }

  private decodeEvent(type: string, payload: JsonRecord): StreamPart[] {
    const key = `${String(payload.output_index)}`;
    switch (type) {
      case 'response.created': return this.start(payload.response);
      case 'response.output_item.added': return [...this.start(undefined), ...this.addItem(key, payload.item)];
      case 'response.content_part.added': return this.open(`${key}:${String(payload.content_index)}`, 'text');
      case 'response.output_text.delta':
      case 'response.refusal.delta': return this.delta(`${key}:${String(payload.content_index)}`, payload.delta);
      case 'response.content_part.done': return this.close(`${key}:${String(payload.content_index)}`);
      case 'response.reasoning_summary_part.added':
        // Summary parts are joined with a blank line, as the JSON decoder joins them.
        return typeof payload.summary_index === 'number' && payload.summary_index > 0 ? this.delta(key, '\n\n') : [];
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
      case 'response.function_call_arguments.delta': return this.delta(key, payload.delta);
      case 'response.function_call_arguments.done': return this.argumentsDone(key, payload.arguments);
      case 'response.output_item.done': return this.itemDone(key, payload.item);
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed': return this.finish(payload.response);
      case 'error': return this.fail(decodeResponsesError(0, payload));
      default: return [];
    }
  }

  private start(response: unknown): StreamPart[] {
    if (this.started) return [];
    this.started = true;
    const record = isPlainObject(response) ? response : {};
    return [{ type: 'response-start', id: typeof record.id === 'string' ? record.id : '', model: typeof record.model === 'string' ? record.model : '' }];
  }

  private addItem(key: string, item: unknown): StreamPart[] {
    if (!isPlainObject(item)) return [];
    if (item.type === 'reasoning') return this.open(key, 'reasoning');
    if (item.type !== 'function_call') return [];
    this.hasToolCalls = true;
    const index = this.nextIndex++;
    this.blocks.set(key, { kind: 'tool', index, sawDelta: false });
    const name = `${typeof item.namespace === 'string' ? `${item.namespace}${NAMESPACE_SEPARATOR}` : ''}${String(item.name)}`;
    return [{ type: 'tool-call-start', index, id: String(item.call_id), name }];
  }

  private open(key: string, kind: 'text' | 'reasoning'): StreamPart[] {
    if (this.blocks.has(key)) return [];
    const index = this.nextIndex++;
    this.blocks.set(key, { kind, index, sawDelta: false });
    return [{ type: kind === 'text' ? 'text-start' : 'reasoning-start', index }];
  }

  private delta(key: string, delta: unknown): StreamPart[] {
    const block = this.blocks.get(key);
    if (block === undefined || typeof delta !== 'string' || delta === '') return [];
    block.sawDelta = true;
    if (block.kind === 'text') return [{ type: 'text-delta', index: block.index, delta }];
    if (block.kind === 'reasoning') return [{ type: 'reasoning-delta', index: block.index, delta }];
    return [{ type: 'tool-call-delta', index: block.index, argumentsDelta: delta }];
  }

  /** Some servers send the arguments only in `.done`; they are emitted then. */
  private argumentsDone(key: string, args: unknown): StreamPart[] {
    const block = this.blocks.get(key);
    if (block === undefined || block.sawDelta || typeof args !== 'string') return [];
    return this.delta(key, args);
  }

  private itemDone(key: string, item: unknown): StreamPart[] {
    const block = this.blocks.get(key);
    const parts: StreamPart[] = [];
    if (block?.kind === 'reasoning' && isPlainObject(item) && typeof item.encrypted_content === 'string') {
      parts.push({ type: 'reasoning-opaque', index: block.index, encrypted: item.encrypted_content });
    }
    if (block?.kind === 'tool' && !block.sawDelta && isPlainObject(item)) parts.push(...this.argumentsDone(key, item.arguments));
    for (const open of [...this.blocks.keys()].filter((candidate) => candidate === key || candidate.startsWith(`${key}:`))) {
      parts.push(...this.close(open));
    }
    return parts;
  }

  private close(key: string): StreamPart[] {
    const block = this.blocks.get(key);
    if (block === undefined) return [];
    this.blocks.delete(key);
    const type = block.kind === 'text' ? 'text-end' : block.kind === 'reasoning' ? 'reasoning-end' : 'tool-call-end';
    return [{ type, index: block.index }];
  }

  private closeAll(): StreamPart[] {
    return [...this.blocks.keys()].flatMap((key) => this.close(key));
  }

  private finish(response: unknown): StreamPart[] {
    const record = isPlainObject(response) ? response : {};
    const status = typeof record.status === 'string' ? record.status : undefined;
    if (status === 'failed' && isPlainObject(record.error)) {
      return this.fail({ status: 500, kind: 'api_error', message: String(record.error.message ?? 'The response failed.') });
    }
    this.done = true;
    const incomplete = isPlainObject(record.incomplete_details) && typeof record.incomplete_details.reason === 'string' ? record.incomplete_details.reason : undefined;
    const finishReason = mapResponsesFinishReason(status, incomplete, this.hasToolCalls);
    return [...this.start(record), ...this.closeAll(), { type: 'finish', finishReason, usage: mapResponsesUsage(record.usage) ?? {} }];
  }

  private fail(error: CanonicalError): StreamPart[] {
    this.done = true;
    return [...this.closeAll(), { type: 'error', error }];
  }
}
