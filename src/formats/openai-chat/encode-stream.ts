// Canonical parts → chat.completion.chunk events, as openai-node's ChatCompletionStream parses them.
// https://platform.openai.com/docs/api-reference/chat-streaming
import type { CodecContext, StreamEncoder } from '../../canonical/codec.js';
import type { CanonicalError, StreamPart } from '../../canonical/response.js';
import type { Usage } from '../../canonical/usage.js';
import { encodeSseEvent } from '../../streaming/sse-encoder.js';
import { encodeOpenAiStreamError } from './encode-stream-error.js';
import { encodeOpenAiFinishReason } from './map-finish-reason.js';
import { encodeOpenAiUsage } from './map-usage.js';

export interface OpenAiChatStreamEncoderOptions {
  model: string;
  context: CodecContext;
  /** The client's stream_options.include_usage; the usage chunk (choices: []) is sent only then. Default true. */
  includeUsage?: boolean;
}

export function createOpenAiChatStreamEncoder(options: OpenAiChatStreamEncoderOptions): StreamEncoder {
  return new OpenAiChatStreamEncoder(options);
}

class OpenAiChatStreamEncoder implements StreamEncoder {
  private id = '';
  private created = 0;
  private started = false;
  private closed = false;
  private readonly toolIndexes = new Map<number, number>();
  private usage: Usage = {};

  constructor(private readonly options: OpenAiChatStreamEncoderOptions) {}

  push(part: StreamPart): string {
    if (this.closed) return '';
    if (part.type === 'error') return this.encodeError(part.error);
    const head = this.start(part.type === 'response-start' ? part.id : '');
    switch (part.type) {
      case 'text-delta': return head + this.chunk({ content: part.delta });
      case 'reasoning-delta': return head + this.chunk({ reasoning_content: part.delta });
      case 'tool-call-start': return head + this.startToolCall(part.index, part.id, part.name);
      case 'tool-call-delta': return head + this.chunk({ tool_calls: [{ index: this.toolIndex(part.index), function: { arguments: part.argumentsDelta } }] });
      case 'usage':
        this.usage = { ...this.usage, ...part.usage };
        return head;
      case 'finish': return head + this.finish(part.finishReason, part.usage);
      default: return head; // block starts and ends and opaque reasoning have no chat form
    }
  }

  end(): string {
    if (this.closed) return '';
    this.closed = true;
    return this.start('') + encodeSseEvent({ data: '[DONE]' });
  }

  /** The first chunk carries role "assistant" (clients rely on it), whatever part comes first. */
  private start(id: string): string {
    if (this.started) return '';
    this.started = true;
    this.id = id !== '' ? id : `chatcmpl-${this.options.context.ids()}`;
    this.created = this.options.context.now();
    return this.chunk({ role: 'assistant', content: '' });
  }

  private chunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
    const choice = { index: 0, delta, logprobs: null, finish_reason: finishReason };
    return this.write({ choices: [choice] });
  }

  private write(fields: Record<string, unknown>): string {
    const chunk = { id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.options.model, ...fields };
    return encodeSseEvent({ data: JSON.stringify(chunk) });
  }

  private toolIndex(index: number): number {
    let toolIndex = this.toolIndexes.get(index);
    if (toolIndex === undefined) {
      toolIndex = this.toolIndexes.size;
      this.toolIndexes.set(index, toolIndex);
    }
    return toolIndex;
  }

  private startToolCall(index: number, id: string, name: string): string {
    const call = { index: this.toolIndex(index), id, type: 'function', function: { name, arguments: '' } };
    return this.chunk({ tool_calls: [call] });
  }

  private finish(reason: Parameters<typeof encodeOpenAiFinishReason>[0], usage: Usage): string {
    this.usage = { ...this.usage, ...definedOnly(usage) };
    let text = this.chunk({}, encodeOpenAiFinishReason(reason));
    if (this.options.includeUsage !== false) text += this.write({ choices: [], usage: encodeOpenAiUsage(this.usage) });
    return text;
  }

  /** OpenAI sends an error object on a data line and then no [DONE]. */
  private encodeError(error: CanonicalError): string {
    this.closed = true;
    return encodeOpenAiStreamError(error);
  }
}

function definedOnly(usage: Usage): Usage {
  return Object.fromEntries(Object.entries(usage).filter(([, value]) => value !== undefined));
}
