// Provider side: ConverseStream events → canonical parts. Each event arrives as
// { event: <:event-type or :exception-type>, data: <JSON payload> } (the provider's
// event-stream reader makes them); an event without a name whose payload is wrapped
// ({"contentBlockDelta": {…}}, the SDK's JSON shape) is unwrapped.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html
import type { StreamDecoder, WireEvent } from '../../canonical/codec.js';
import type { FinishReason, StreamPart } from '../../canonical/response.js';
import { decodeBedrockError } from './decode-error.js';
import { mapBedrockStopReason } from './map-finish-reason.js';
import { mapBedrockUsage } from './map-usage.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';

type BlockKind = 'text' | 'reasoning' | 'tool';
const END: Record<BlockKind, 'text-end' | 'reasoning-end' | 'tool-call-end'> = { text: 'text-end', reasoning: 'reasoning-end', tool: 'tool-call-end' };

export function createBedrockStreamDecoder(): StreamDecoder {
  const open = new Map<number, BlockKind>();
  let started = false;
  let finished = false;
  let finishReason: FinishReason | undefined;

  const closeBlock = (index: number): StreamPart[] => {
    const kind = open.get(index);
    open.delete(index);
    return kind === undefined ? [] : [{ type: END[kind], index }];
  };
  const closeAll = (): StreamPart[] => [...open.keys()].flatMap(closeBlock);
  const ensure = (index: number, kind: 'text' | 'reasoning'): StreamPart[] => {
    if (open.get(index) === kind) return [];
    open.set(index, kind);
    return [{ type: kind === 'text' ? 'text-start' : 'reasoning-start', index }];
  };
  const begin = (): StreamPart[] => {
    if (started) return [];
    started = true;
    return [{ type: 'response-start', id: '', model: '' }];
  };

  function onDelta(payload: JsonRecord): StreamPart[] {
    const index = typeof payload.contentBlockIndex === 'number' ? payload.contentBlockIndex : 0;
    const delta = isPlainObject(payload.delta) ? payload.delta : {};
    if (typeof delta.text === 'string') return [...ensure(index, 'text'), { type: 'text-delta', index, delta: delta.text }];
    if (isPlainObject(delta.toolUse) && typeof delta.toolUse.input === 'string' && open.get(index) === 'tool') {
      return [{ type: 'tool-call-delta', index, argumentsDelta: delta.toolUse.input }];
    }
    if (!isPlainObject(delta.reasoningContent)) return [];
    const reasoning = delta.reasoningContent;
    const parts = ensure(index, 'reasoning');
    if (typeof reasoning.text === 'string') parts.push({ type: 'reasoning-delta', index, delta: reasoning.text });
    if (typeof reasoning.signature === 'string') parts.push({ type: 'reasoning-opaque', index, signature: reasoning.signature });
    if (typeof reasoning.redactedContent === 'string') parts.push({ type: 'reasoning-opaque', index, redacted: reasoning.redactedContent });
    return parts;
  }

  function onEvent(name: string, payload: JsonRecord): StreamPart[] {
    switch (name) {
      case 'messageStart': return begin();
      case 'contentBlockStart': {
        const index = typeof payload.contentBlockIndex === 'number' ? payload.contentBlockIndex : 0;
        const toolUse = isPlainObject(payload.start) && isPlainObject(payload.start.toolUse) ? payload.start.toolUse : undefined;
        if (toolUse === undefined) return [];
        open.set(index, 'tool');
        return [...begin(), { type: 'tool-call-start', index, id: String(toolUse.toolUseId ?? ''), name: String(toolUse.name ?? '') }];
      }
      case 'contentBlockDelta': return [...begin(), ...onDelta(payload)];
      case 'contentBlockStop': return closeBlock(typeof payload.contentBlockIndex === 'number' ? payload.contentBlockIndex : 0);
      case 'messageStop':
        finishReason = mapBedrockStopReason(payload.stopReason);
        return closeAll();
      case 'metadata': {
        finished = true;
        const usage = mapBedrockUsage(payload.usage) ?? {};
        return [...closeAll(), { type: 'usage', usage }, { type: 'finish', finishReason: finishReason ?? { unified: 'other' }, usage }];
      }
      default:
        if (name !== 'error' && !name.endsWith('Exception')) return [];
        finished = true;
        return [{ type: 'error', error: decodeBedrockError(0, payload, name) }];
    }
  }

  return {
    push(event: WireEvent): StreamPart[] {
      if (finished) return [];
      let payload: unknown;
      try {
        payload = JSON.parse(event.data);
      } catch {
        payload = { message: event.data };
      }
      if (!isPlainObject(payload)) return [];
      if (event.event !== undefined) return onEvent(event.event, payload);
      const [name] = Object.keys(payload);
      return name !== undefined && Object.keys(payload).length === 1 && isPlainObject(payload[name]) ? onEvent(name, payload[name]) : [];
    },
    end(): StreamPart[] {
      if (finished) return [];
      finished = true;
      return [...closeAll(), { type: 'finish', finishReason: finishReason ?? { unified: 'other' }, usage: {} }];
    },
  };
}
