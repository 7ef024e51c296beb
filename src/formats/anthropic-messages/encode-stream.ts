// Canonical parts → Messages stream events, as the Anthropic SDK's MessageStream parses them.
// https://docs.anthropic.com/en/api/messages-streaming
// Anthropic blocks are strictly sequential (start, deltas, stop), while canonical parts from other
// dialects may keep several blocks open (OpenAI parallel tool calls). One block is open on the
// wire at a time; a block started meanwhile waits in a queue with its parts and follows in order.
import type { CodecContext, StreamEncoder } from '../../canonical/codec.js';
import type { CanonicalError, FinishReason, StreamPart } from '../../canonical/response.js';
import type { Usage } from '../../canonical/usage.js';
import { encodeSseEvent } from '../../streaming/sse-encoder.js';
import { wrapForeignSignature } from '../shared/foreign-thinking-signature.js';
import { toSafeToolId } from '../shared/safe-tool-id.js';
import { encodeAnthropicStreamError } from './encode-stream-error.js';
import { encodeAnthropicStopReason } from './map-finish-reason.js';
import { encodeAnthropicUsage } from './map-usage.js';

type Kind = 'text' | 'tool-call' | 'reasoning';
type ContentPart = Extract<StreamPart, { type: 'text-delta' | 'tool-call-delta' | 'reasoning-delta' | 'reasoning-opaque' }>;

interface Block {
  kind: Kind;
  wireIndex: number;
  headerSent: boolean;
  buffered: ContentPart[];
  ended: boolean;
  tool?: { id: string; name: string };
  /** A signature (or redacted data) went out: an unsigned thinking block gets a gw carrier at its stop. */
  signed?: boolean;
}

export function createAnthropicStreamEncoder(options: { model: string; context: CodecContext }): StreamEncoder {
  return new AnthropicStreamEncoder(options.model, options.context);
}

class AnthropicStreamEncoder implements StreamEncoder {
  private readonly blocks = new Map<number, Block>();
  private readonly queue: number[] = [];
  private current: number | undefined;
  private nextWireIndex = 0;
  private started = false;
  private finished = false;
  private closed = false;
  private usage: Usage = {};

  constructor(private readonly model: string, private readonly context: CodecContext) {}

  push(part: StreamPart): string {
    if (this.closed || this.finished) return '';
    if (part.type === 'error') return this.encodeError(part.error);
    let text = this.start(part.type === 'response-start' ? part.id : '');
    switch (part.type) {
      case 'text-start': case 'reasoning-start': case 'tool-call-start':
        return text + this.startBlock(part);
      case 'text-delta': case 'tool-call-delta': case 'reasoning-delta': case 'reasoning-opaque':
        return text + this.content(part);
      case 'text-end': case 'reasoning-end': case 'tool-call-end':
        return text + this.endBlock(part.index);
      case 'usage':
        this.usage = { ...this.usage, ...definedOnly(part.usage) };
        return text;
      case 'finish':
        text += this.closeAll();
        this.usage = { ...this.usage, ...definedOnly(part.usage) };
        this.finished = true;
        return text + this.messageDelta(part.finishReason);
      default:
        return text;
    }
  }

  end(): string {
    if (this.closed) return '';
    this.closed = true;
    return this.start('') + this.closeAll() + event('message_stop', { type: 'message_stop' });
  }

  private start(id: string): string {
    if (this.started) return '';
    this.started = true;
    const message = {
      id: id !== '' ? id : `msg_${this.context.ids()}`, type: 'message', role: 'assistant', model: this.model, content: [],
      stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 },
    };
    return event('message_start', { type: 'message_start', message });
  }

  private startBlock(part: Extract<StreamPart, { type: 'text-start' | 'reasoning-start' | 'tool-call-start' }>): string {
    const kind: Kind = part.type === 'text-start' ? 'text' : part.type === 'reasoning-start' ? 'reasoning' : 'tool-call';
    const block: Block = { kind, wireIndex: -1, headerSent: false, buffered: [], ended: false };
    if (part.type === 'tool-call-start') block.tool = { id: part.id, name: part.name };
    this.blocks.set(part.index, block);
    if (this.current !== undefined) {
      this.queue.push(part.index);
      return '';
    }
    return this.open(part.index);
  }

  private content(part: ContentPart): string {
    let text = '';
    if (!this.blocks.has(part.index)) {
      // A delta without a start (or after its end) opens a block of its own kind.
      const kind: Kind = part.type === 'text-delta' ? 'text' : part.type === 'tool-call-delta' ? 'tool-call' : 'reasoning';
      text += kind === 'tool-call'
        ? this.startBlock({ type: 'tool-call-start', index: part.index, id: `toolu_${this.context.ids()}`, name: '' })
        : this.startBlock({ type: kind === 'text' ? 'text-start' : 'reasoning-start', index: part.index });
    }
    const block = this.blocks.get(part.index) as Block;
    if (this.current !== part.index) {
      block.buffered.push(part);
      return text;
    }
    return text + this.write(block, part);
  }

  private endBlock(index: number): string {
    const block = this.blocks.get(index);
    if (!block) return '';
    if (this.current === index) return this.closeCurrent();
    block.ended = true;
    return '';
  }

  private open(index: number): string {
    const block = this.blocks.get(index) as Block;
    this.current = index;
    block.wireIndex = this.nextWireIndex++;
    // A reasoning block waits for its first part: it may turn out to be redacted_thinking.
    let text = block.kind === 'reasoning' ? '' : this.header(block, {});
    for (const part of block.buffered.splice(0)) text += this.write(block, part);
    return block.ended ? text + this.closeCurrent() : text;
  }

  private closeCurrent(): string {
    if (this.current === undefined) return '';
    const block = this.blocks.get(this.current) as Block;
    let text = block.headerSent ? '' : this.header(block, {});
    if (block.kind === 'reasoning' && !block.signed) text += event('content_block_delta', { type: 'content_block_delta', index: block.wireIndex, delta: signatureDelta(wrapForeignSignature('none', '')) });
    text += event('content_block_stop', { type: 'content_block_stop', index: block.wireIndex });
    this.blocks.delete(this.current);
    this.current = undefined;
    const next = this.queue.shift();
    return next === undefined ? text : text + this.open(next);
  }

  private closeAll(): string {
    let text = '';
    while (this.current !== undefined) {
      (this.blocks.get(this.current) as Block).ended = true;
      for (const index of this.queue) (this.blocks.get(index) as Block).ended = true;
      text += this.closeCurrent();
    }
    return text;
  }

  private header(block: Block, reasoning: { redacted?: string }): string {
    block.headerSent = true;
    let contentBlock: Record<string, unknown>;
    if (block.kind === 'text') contentBlock = { type: 'text', text: '' };
    else if (block.kind === 'tool-call') contentBlock = { type: 'tool_use', id: toSafeToolId(block.tool?.id ?? ''), name: block.tool?.name ?? '', input: {} };
    else if (reasoning.redacted !== undefined) {
      contentBlock = { type: 'redacted_thinking', data: reasoning.redacted };
      block.signed = true;
    }
    else contentBlock = { type: 'thinking', thinking: '', signature: '' };
    return event('content_block_start', { type: 'content_block_start', index: block.wireIndex, content_block: contentBlock });
  }

  private write(block: Block, part: ContentPart): string {
    if (part.type === 'reasoning-opaque' && part.redacted !== undefined && !block.headerSent) return this.header(block, { redacted: part.redacted });
    let text = block.headerSent ? '' : this.header(block, {});
    const delta = deltaOf(part);
    if (delta?.type === 'signature_delta') block.signed = true;
    if (delta) text += event('content_block_delta', { type: 'content_block_delta', index: block.wireIndex, delta });
    return text;
  }

  private messageDelta(reason: FinishReason): string {
    const delta = { stop_reason: encodeAnthropicStopReason(reason), stop_sequence: null };
    return event('message_delta', { type: 'message_delta', delta, usage: encodeAnthropicUsage(this.usage) });
  }

  /** Anthropic's in-stream error event; nothing follows it. */
  private encodeError(error: CanonicalError): string {
    this.closed = true;
    return this.start('') + encodeAnthropicStreamError(error);
  }
}

function deltaOf(part: ContentPart): Record<string, unknown> | undefined {
  switch (part.type) {
    case 'text-delta': return { type: 'text_delta', text: part.delta };
    case 'tool-call-delta': return { type: 'input_json_delta', partial_json: part.argumentsDelta };
    case 'reasoning-delta': return { type: 'thinking_delta', thinking: part.delta };
    default: {
      // Only Anthropic's own signature goes out as one; another provider's opaque value rides in a gw carrier.
      if (part.encrypted !== undefined) return signatureDelta(wrapForeignSignature('openai', part.encrypted));
      if (part.signature === undefined) return undefined;
      return signatureDelta(part.origin === 'google' ? wrapForeignSignature('google', part.signature) : part.signature);
    }
  }
}

function signatureDelta(signature: string): Record<string, unknown> {
  return { type: 'signature_delta', signature };
}

function event(name: string, data: Record<string, unknown>): string {
  return encodeSseEvent({ event: name, data: JSON.stringify(data) });
}

function definedOnly(usage: Usage): Usage {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== undefined));
}
