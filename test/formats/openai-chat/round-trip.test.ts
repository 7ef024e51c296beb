// Property: for any canonical request (and response) within what Chat Completions can express,
// decode(encode(x)) gives x back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssistantPart, CanonicalRequest, Message, UserPart } from '../../../src/canonical/request.js';
import type { CanonicalResponse } from '../../../src/canonical/response.js';
import { openAiChatCodec as codec } from '../../../src/formats/openai-chat/index.js';
import { fixedContext } from '../codec-support.js';

const word = fc.string({ minLength: 1, maxLength: 12 });
const text = word.map((value) => ({ type: 'text' as const, text: value }));
const base64 = fc.base64String({ minLength: 4, maxLength: 24 }).filter((value) => value.length > 0);
const json = fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.boolean()), { maxKeys: 3 });

const userPart: fc.Arbitrary<UserPart> = fc.oneof(
  text,
  fc.webUrl().map((url) => ({ type: 'image' as const, source: { type: 'url' as const, url } })),
  fc.record({ mediaType: fc.constantFrom('image/png', 'image/jpeg'), data: base64 }).map((source) => ({ type: 'image' as const, source: { type: 'base64' as const, ...source } })),
  fc.record({ data: base64, title: word }).map(({ data, title }) => ({ type: 'document' as const, title, source: { type: 'base64' as const, mediaType: 'application/pdf', data } })),
  fc.record({ fileId: word, title: fc.option(word, { nil: undefined }) }).map(({ fileId, title }) => ({ type: 'document' as const, source: { type: 'file' as const, fileId }, ...(title === undefined ? {} : { title }) })),
);
const toolCall = fc.record({ id: word.map((id) => `call_${id}`), name: word, arguments: json.map((value) => JSON.stringify(value)) })
  .map((call): AssistantPart => ({ type: 'tool-call', ...call }));
const user = fc.array(userPart, { minLength: 1, maxLength: 4 }).map((content): Message => ({ role: 'user', content }));
const assistant = fc.tuple(fc.array(text, { maxLength: 3 }), fc.array(toolCall, { maxLength: 3 }))
  .map(([texts, calls]): Message => ({ role: 'assistant', content: [...texts, ...calls] }));
const toolResult = fc.record({ toolCallId: word.map((id) => `result_${id}`), content: fc.array(text, { minLength: 1, maxLength: 3 }) })
  .map((result) => ({ type: 'tool-result' as const, ...result }));
const tool = fc.array(toolResult, { minLength: 1, maxLength: 3 }).map((content): Message => ({ role: 'tool', content }));

/** Consecutive tool messages are one turn in chat, so the generator never emits two in a row. */
const messages = fc.array(fc.oneof(user, assistant, tool), { maxLength: 6 })
  .map((list) => list.filter((message, index) => !(message.role === 'tool' && list[index - 1]?.role === 'tool')));

const optional = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arbitrary, { nil: undefined });

const request: fc.Arbitrary<CanonicalRequest> = fc.record({
  model: word,
  system: fc.array(text, { maxLength: 2 }),
  messages,
  tools: optional(fc.array(fc.record({ name: word, description: optional(word), parameters: fc.constant({ type: 'object', properties: { a: { type: 'string' } } }), strict: optional(fc.boolean()) }), { maxLength: 2 })),
  toolChoice: optional(fc.oneof(fc.constantFrom({ type: 'auto' as const }, { type: 'none' as const }, { type: 'required' as const }), word.map((name) => ({ type: 'tool' as const, name })))),
  parallelToolCalls: optional(fc.boolean()),
  maxOutputTokens: optional(fc.integer({ min: 1, max: 100_000 })),
  temperature: optional(fc.double({ min: 0, max: 2, noNaN: true })),
  topP: optional(fc.double({ min: 0, max: 1, noNaN: true })),
  stopSequences: optional(fc.array(word, { minLength: 1, maxLength: 3 })),
  responseFormat: optional(fc.oneof(fc.constant({ type: 'text' as const }), fc.constant({ type: 'json' as const }), fc.record({ type: fc.constant('json-schema' as const), name: word, schema: fc.constant({ type: 'object' }), strict: optional(fc.boolean()) }))),
  reasoning: optional(fc.constantFrom('minimal', 'low', 'medium', 'high', 'max').map((effort) => ({ effort: effort as 'low' }))),
  user: optional(word),
  stream: fc.constant(false),
  extensions: fc.constantFrom({}, { openai: { seed: 3, logprobs: true } }),
}, { requiredKeys: ['model', 'system', 'messages', 'stream', 'extensions'] }).map((value) => ({
  ...value,
  tools: value.tools?.map((definition) => ({ type: 'function' as const, ...definition })),
}));

function withoutUndefined<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

describe('openai-chat round trips', () => {
  it('decodeRequest(encodeRequest(r)) equals r', () => {
    fc.assert(fc.property(request, (original) => {
      const canonical = withoutUndefined(original);
      const encoded = codec.encodeRequest(canonical);
      expect(encoded.warnings).toEqual([]);
      const decoded = codec.decodeRequest(encoded.value, { model: canonical.model, stream: false });
      expect(withoutUndefined(decoded.value)).toEqual(canonical);
    }), { numRuns: 300 });
  });

  it('decodeResponse(encodeResponse(r)) equals r', () => {
    const response: fc.Arbitrary<CanonicalResponse> = fc.record({
      id: word, model: word,
      reasoning: optional(word), text: optional(word), calls: fc.array(toolCall, { maxLength: 3 }),
      raw: fc.constantFrom('stop', 'length', 'tool_calls', 'content_filter'),
      usage: fc.record({ inputTokens: fc.nat(), outputTokens: fc.nat(), cachedReadTokens: optional(fc.nat()), reasoningTokens: optional(fc.nat()) }),
    }).map(({ id, model, reasoning, text: answer, calls, raw, usage }) => ({
      id, model, extensions: {},
      content: [...(reasoning === undefined ? [] : [{ type: 'reasoning' as const, text: reasoning }]), ...(answer === undefined ? [] : [{ type: 'text' as const, text: answer }]), ...calls],
      finishReason: { unified: ({ stop: 'stop', length: 'length', tool_calls: 'tool-calls', content_filter: 'content-filter' } as const)[raw as 'stop'], raw },
      usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens },
    }));
    fc.assert(fc.property(response, (original) => {
      const canonical = withoutUndefined(original);
      const decoded = codec.decodeResponse(codec.encodeResponse(canonical, fixedContext()));
      expect(withoutUndefined(decoded.value)).toEqual(canonical);
    }), { numRuns: 200 });
  });
});
