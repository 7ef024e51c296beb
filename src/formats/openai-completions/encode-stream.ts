// Client side: canonical parts → the completions SSE stream openai-node reads: one
// text_completion chunk per text delta, a chunk with finish_reason (carrying usage, since
// the encoder cannot know whether the client asked for it and a usage field on that chunk
// breaks no client), then `data: [DONE]`. An error is a data line with the error object and
// no [DONE]. Tool calls and reasoning have no place here and are left out.
// https://platform.openai.com/docs/api-reference/completions/create#completions-create-stream
import type { CodecContext, StreamEncoder } from '../../canonical/codec.js';
import type { StreamPart } from '../../canonical/response.js';
import type { Usage } from '../../canonical/usage.js';
import { encodeCompletionsStreamError } from './encode-stream-error.js';
import { toCompletionsFinishReason } from './map-finish-reason.js';
import { toCompletionsUsage } from './map-usage.js';

export function createCompletionsStreamEncoder(options: { model: string; context: CodecContext }): StreamEncoder {
  let id: string | undefined;
  let created: number | undefined;
  let usage: Usage | undefined;
  let done = false;

  function chunk(text: string, finishReason: string | null, extra: Record<string, unknown> = {}): string {
    id ??= `cmpl-${options.context.ids()}`;
    created ??= options.context.now();
    const body = {
      id, object: 'text_completion', created, model: options.model,
      choices: [{ text, index: 0, logprobs: null, finish_reason: finishReason }], ...extra,
    };
    return `data: ${JSON.stringify(body)}\n\n`;
  }

  return {
    push(part: StreamPart): string {
      if (done) return '';
      switch (part.type) {
        case 'response-start':
          if (part.id !== '') id ??= part.id;
          return '';
        case 'text-delta':
          return part.delta === '' ? '' : chunk(part.delta, null);
        case 'usage':
          usage = part.usage;
          return '';
        case 'finish':
          done = true;
          return chunk('', toCompletionsFinishReason(part.finishReason), { usage: toCompletionsUsage({ ...usage, ...part.usage }) }) + 'data: [DONE]\n\n';
        case 'error':
          done = true;
          return encodeCompletionsStreamError(part.error);
        default:
          return '';
      }
    },
    end(): string {
      if (done) return '';
      done = true;
      return 'data: [DONE]\n\n';
    },
  };
}
