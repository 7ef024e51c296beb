// Canonical parts → Responses SSE for a Responses client (Codex, the OpenAI SDK):
// response.created, response.in_progress, then per output item output_item.added …
// output_item.done, and response.completed last (Codex closes right after it). Every event
// has a growing sequence_number. https://platform.openai.com/docs/api-reference/responses-streaming
import type { CodecContext, StreamEncoder } from '../../canonical/codec.js';
import type { CanonicalError, FinishReason, StreamPart } from '../../canonical/response.js';
import type { Usage } from '../../canonical/usage.js';
import { encodeSseEvent } from '../../streaming/sse-encoder.js';
import { encodeResponsesFailure, responsesErrorFields } from './encode-stream-error.js';
import { customInput, declaredCustomTools } from './custom-tools.js';
import { declaredNamespaces, splitName } from './encode-input.js';
import { createResponseObject, encodeCustomCall, encodeReasoningItem, toResponseId } from './encode-response.js';
import type { JsonRecord } from '../shared/json-guards.js';

interface OpenItem {
  kind: 'text' | 'reasoning' | 'tool' | 'custom';
  outputIndex: number;
  itemId: string;
  text: string;
  summaryStarted: boolean;
  encrypted?: string;
  callId?: string;
  name?: string;
}

export class ResponsesStreamEncoder implements StreamEncoder {
  private sequence = 0;
  private responseId: string | undefined;
  private readonly createdAt: number;
  private readonly items = new Map<number, OpenItem>();
  private readonly output: JsonRecord[] = [];
  private usage: Usage = {};
  private closed = false;

  private readonly namespaces: Set<string>;
  private readonly customTools: Set<string>;

  constructor(private readonly options: { model: string; context: CodecContext }) {
    this.createdAt = options.context.now();
    this.namespaces = declaredNamespaces(options.context.request);
    this.customTools = declaredCustomTools(options.context.request);
  }

  push(part: StreamPart): string {
    if (this.closed) return '';
    if (part.type === 'response-start') return this.start(part.id);
    const prefix = this.start('');
    switch (part.type) {
      case 'text-start': return prefix + this.openText(part.index);
      case 'reasoning-start': return prefix + this.openItem(part.index, 'reasoning', { type: 'reasoning', summary: [] });
      case 'tool-call-start': return prefix + this.openTool(part.index, part.id, part.name);
      case 'text-delta':
      case 'reasoning-delta': return prefix + this.delta(part.index, part.delta);
      case 'tool-call-delta': return prefix + this.delta(part.index, part.argumentsDelta);
      case 'reasoning-opaque': {
        const item = this.items.get(part.index);
        if (item !== undefined && part.encrypted !== undefined) item.encrypted = part.encrypted;
        return prefix;
      }
      case 'text-end':
      case 'reasoning-end':
      case 'tool-call-end': return prefix + this.closeItem(part.index);
      case 'usage': this.usage = part.usage; return prefix;
      case 'finish': return prefix + this.finish(part.finishReason, Object.keys(part.usage).length > 0 ? part.usage : this.usage);
      case 'error': return prefix + this.fail(part.error);
    }
  }

  end(): string {
    if (this.closed) return '';
    // The upstream ended with no finish: the client still needs a terminal event.
    return this.start('') + this.fail({ status: 502, kind: 'api_error', message: 'The upstream stream ended before the response was complete.' });
  }

  private start(id: string): string {
    if (this.responseId !== undefined) return '';
    this.responseId = toResponseId(id, this.options.context);
    const response = this.snapshot();
    return this.emit('response.created', { response }) + this.emit('response.in_progress', { response });
  }

  private openText(index: number): string {
    const item = this.newItem(index, 'text');
    const added = this.addItem(item, { type: 'message', status: 'in_progress', role: 'assistant', content: [] });
    return added + this.emit('response.content_part.added', { ...this.at(item), content_index: 0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } });
  }

  private openTool(index: number, callId: string, name: string): string {
    if (this.customTools.has(name)) {
      return this.addItem(this.newItem(index, 'custom', { callId, name }), { type: 'custom_tool_call', status: 'in_progress', call_id: callId, name, input: '' });
    }
    // Codex dispatches a namespaced tool by {namespace, name}: split the flattened name back.
    return this.addItem(this.newItem(index, 'tool', { callId, name }), { type: 'function_call', status: 'in_progress', call_id: callId, ...splitName(name, this.namespaces), arguments: '' });
  }

  private openItem(index: number, kind: OpenItem['kind'], fields: JsonRecord): string {
    return this.addItem(this.newItem(index, kind), fields);
  }

  /** The item at output position `index`, open from now on; a tool's carries its call id and name. */
  private newItem(index: number, kind: OpenItem['kind'], tool?: { callId: string; name: string }): OpenItem {
    const prefix = { text: 'msg', reasoning: 'rs', tool: 'fc', custom: 'ctc' }[kind];
    const item: OpenItem = { kind, outputIndex: this.output.length, itemId: `${prefix}_${this.options.context.ids()}`, text: '', summaryStarted: false, ...tool };
    this.items.set(index, item);
    return item;
  }

  private addItem(item: OpenItem, fields: JsonRecord): string {
    this.output.push({ id: item.itemId, ...fields }); // replaced by the finished item in output_item.done
    return this.emit('response.output_item.added', { output_index: item.outputIndex, item: { id: item.itemId, ...fields } });
  }

  private delta(index: number, delta: string): string {
    const item = this.items.get(index);
    if (item === undefined || delta === '') return '';
    item.text += delta;
    if (item.kind === 'text') return this.emit('response.output_text.delta', { ...this.at(item), content_index: 0, delta, logprobs: [] });
    if (item.kind === 'tool') return this.emit('response.function_call_arguments.delta', { ...this.at(item), delta });
    // The free-form input sits inside JSON arguments until they are complete: sent whole at the end.
    if (item.kind === 'custom') return '';
    let text = '';
    if (!item.summaryStarted) {
      item.summaryStarted = true;
      text += this.emit('response.reasoning_summary_part.added', { ...this.at(item), summary_index: 0, part: { type: 'summary_text', text: '' } });
    }
    return text + this.emit('response.reasoning_summary_text.delta', { ...this.at(item), summary_index: 0, delta });
  }

  private closeItem(index: number): string {
    const item = this.items.get(index);
    if (item === undefined) return '';
    this.items.delete(index);
    let text = '';
    let done: JsonRecord;
    if (item.kind === 'text') {
      const part = { type: 'output_text', text: item.text, annotations: [], logprobs: [] };
      text += this.emit('response.output_text.done', { ...this.at(item), content_index: 0, text: item.text, logprobs: [] });
      text += this.emit('response.content_part.done', { ...this.at(item), content_index: 0, part });
      done = { id: item.itemId, type: 'message', status: 'completed', role: 'assistant', content: [part] };
    } else if (item.kind === 'custom') {
      const input = customInput(item.text);
      text += this.emit('response.custom_tool_call_input.delta', { ...this.at(item), delta: input });
      text += this.emit('response.custom_tool_call_input.done', { ...this.at(item), input });
      done = encodeCustomCall(item.itemId, item.callId ?? '', item.name ?? '', item.text);
    } else if (item.kind === 'tool') {
      text += this.emit('response.function_call_arguments.done', { ...this.at(item), name: item.name, arguments: item.text });
      done = { id: item.itemId, type: 'function_call', status: 'completed', call_id: item.callId, ...splitName(item.name ?? '', this.namespaces), arguments: item.text };
    } else {
      if (item.summaryStarted) {
        text += this.emit('response.reasoning_summary_text.done', { ...this.at(item), summary_index: 0, text: item.text });
        text += this.emit('response.reasoning_summary_part.done', { ...this.at(item), summary_index: 0, part: { type: 'summary_text', text: item.text } });
      }
      done = encodeReasoningItem(item.itemId, item.text, item.encrypted);
    }
    this.output[item.outputIndex] = done;
    return text + this.emit('response.output_item.done', { output_index: item.outputIndex, item: done });
  }

  private finish(finishReason: FinishReason, usage: Usage): string {
    const text = [...this.items.keys()].map((index) => this.closeItem(index)).join('');
    this.closed = true;
    const response = this.snapshot(finishReason, usage);
    const type = response.status === 'incomplete' ? 'response.incomplete' : response.status === 'failed' ? 'response.failed' : 'response.completed';
    return text + this.emit(type, { response });
  }

  /** An error is an `error` event, then response.failed so the client sees a terminal event (encode-stream-error.ts). */
  private fail(error: CanonicalError): string {
    this.closed = true;
    const failed = this.snapshot(undefined, this.usage, responsesErrorFields(error));
    const text = encodeResponsesFailure(error, this.sequence, failed);
    this.sequence += 2;
    return text;
  }

  private snapshot(finishReason?: FinishReason, usage?: Usage, error?: JsonRecord): JsonRecord {
    return createResponseObject({
      id: this.responseId!, model: this.options.model, createdAt: this.createdAt, output: [...this.output],
      ...(finishReason === undefined ? {} : { finishReason }), ...(usage === undefined ? {} : { usage }), ...(error === undefined ? {} : { error }),
    });
  }

  private at(item: OpenItem): JsonRecord {
    return { item_id: item.itemId, output_index: item.outputIndex };
  }

  private emit(type: string, fields: JsonRecord): string {
    return encodeSseEvent({ event: type, data: JSON.stringify({ type, ...fields, sequence_number: this.sequence++ }) });
  }
}
