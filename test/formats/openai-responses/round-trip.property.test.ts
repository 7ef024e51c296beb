// For any canonical request (and response) Responses can express, decode(encode(x)) returns x.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CodecContext } from '../../../src/canonical/codec.js';
import type { AssistantPart, CanonicalRequest, Message, UserPart } from '../../../src/canonical/request.js';
import type { CanonicalResponse } from '../../../src/canonical/response.js';
import { openAiResponsesCodec } from '../../../src/formats/openai-responses/index.js';

const text = fc.string({ minLength: 1, maxLength: 20 });
const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/);
const args = fc.dictionary(name, fc.oneof(fc.string(), fc.integer()), { maxKeys: 3 }).map((value) => JSON.stringify(value));
const userPart: fc.Arbitrary<UserPart> = fc.oneof(
  text.map((value) => ({ type: 'text' as const, text: value })),
  fc.webUrl().map((url) => ({ type: 'image' as const, source: { type: 'url' as const, url } })),
  fc.base64String({ minLength: 4, maxLength: 12 }).map((data) => ({ type: 'image' as const, source: { type: 'base64' as const, mediaType: 'image/png', data } })),
  name.map((id) => ({ type: 'document' as const, source: { type: 'file' as const, fileId: `file-${id}` }, title: `${id}.pdf` })),
);
const assistantPart: fc.Arbitrary<AssistantPart> = fc.oneof(
  text.map((value) => ({ type: 'text' as const, text: value })),
  fc.record({ text: fc.string({ maxLength: 20 }), encrypted: fc.base64String({ minLength: 4, maxLength: 16 }) })
    .map((fields) => ({ type: 'reasoning' as const, ...fields, origin: 'openai' as const })),
);

const messages: fc.Arbitrary<Message[]> = fc.array(
  fc.tuple(fc.array(userPart, { minLength: 1, maxLength: 3 }), fc.array(assistantPart, { maxLength: 3 }), fc.array(fc.tuple(name, args), { maxLength: 2 })),
  { minLength: 1, maxLength: 3 },
).map((turns) => turns.flatMap(([user, assistant, calls], turn): Message[] => {
  const callParts = calls.map(([callName, callArgs], index) => ({ type: 'tool-call' as const, id: `call_${turn}_${index}`, name: callName, arguments: callArgs }));
  const result: Message[] = [{ role: 'user', content: user }];
  if (assistant.length + callParts.length > 0) result.push({ role: 'assistant', content: [...assistant, ...callParts] });
  if (callParts.length > 0) {
    result.push({ role: 'tool', content: callParts.map((call) => ({ type: 'tool-result' as const, toolCallId: call.id, toolName: call.name, content: [{ type: 'text' as const, text: `result of ${call.name}` }] })) });
  }
  return result;
}));

const request: fc.Arbitrary<CanonicalRequest> = fc.record({
  system: fc.array(text.map((value) => ({ type: 'text' as const, text: value })), { maxLength: 3 }),
  messages,
  tools: fc.option(fc.uniqueArray(name, { minLength: 1, maxLength: 3 }).map((names) => names.map((toolName) => ({
    type: 'function' as const, name: toolName, description: `does ${toolName}`, strict: true,
    parameters: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'], additionalProperties: false },
  }))), { nil: undefined }),
  toolChoice: fc.option(fc.constantFrom({ type: 'auto' as const }, { type: 'none' as const }, { type: 'required' as const }), { nil: undefined }),
  maxOutputTokens: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: undefined }),
  temperature: fc.option(fc.double({ min: 0, max: 2, noNaN: true }), { nil: undefined }),
  topP: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  user: fc.option(name, { nil: undefined }),
  parallelToolCalls: fc.option(fc.boolean(), { nil: undefined }),
  stream: fc.boolean(),
  reasoning: fc.option(fc.record({ effort: fc.constantFrom('minimal' as const, 'low' as const, 'medium' as const, 'high' as const, 'max' as const), include: fc.constant(true) }), { nil: undefined }),
  responseFormat: fc.option(fc.oneof(fc.constantFrom({ type: 'json' as const }, { type: 'text' as const }),
    name.map((schemaName) => ({ type: 'json-schema' as const, name: schemaName, schema: { type: 'object' }, strict: true }))), { nil: undefined }),
}).map((fields) => {
  const value: CanonicalRequest = { model: 'gpt-5', system: fields.system, messages: fields.messages, stream: fields.stream, extensions: { openai: { store: false } } };
  for (const [key, field] of Object.entries(fields)) if (field !== undefined && !['system', 'messages', 'stream'].includes(key)) Object.assign(value, { [key]: field });
  return value;
});

let counter = 0;
const context: CodecContext = { ids: () => `id${++counter}`, now: () => 1_700_000_000 };

describe('openai-responses round trips', () => {
  it('decodeRequest(encodeRequest(r)) equals r', () => {
    fc.assert(fc.property(request, (value) => {
      const encoded = openAiResponsesCodec.encodeRequest(value);
      expect(openAiResponsesCodec.decodeRequest(encoded.value, { model: value.model, stream: value.stream }).value).toEqual(value);
    }), { numRuns: 300 });
  });

  it('decodeResponse(encodeResponse(r)) equals r', () => {
    const response: fc.Arbitrary<CanonicalResponse> = fc.record({
      content: fc.array(assistantPart, { maxLength: 4 }),
      calls: fc.array(fc.tuple(name, args), { maxLength: 2 }),
      input: fc.integer({ min: 0, max: 10_000 }), cached: fc.integer({ min: 0, max: 100 }), output: fc.integer({ min: 0, max: 1000 }), reasoning: fc.integer({ min: 0, max: 500 }),
      finish: fc.constantFrom({ unified: 'stop' as const, raw: 'completed' }, { unified: 'length' as const, raw: 'max_output_tokens' }, { unified: 'content-filter' as const, raw: 'content_filter' }),
    }).map(({ content, calls, input, cached, output, reasoning, finish }) => {
      const callParts = calls.map(([callName, callArgs], index) => ({ type: 'tool-call' as const, id: `call_${index}`, name: callName, arguments: callArgs }));
      return {
        id: 'resp_1', model: 'gpt-5', content: [...content, ...callParts],
        finishReason: callParts.length > 0 && finish.unified === 'stop' ? { unified: 'tool-calls' as const, raw: 'completed' } : finish,
        usage: { inputTokens: input + cached, cachedReadTokens: cached, outputTokens: output + reasoning, reasoningTokens: reasoning, totalTokens: input + cached + output + reasoning },
        extensions: {},
      };
    });
    fc.assert(fc.property(response, (value) => {
      expect(openAiResponsesCodec.decodeResponse(openAiResponsesCodec.encodeResponse(value, context)).value).toEqual(value);
    }), { numRuns: 300 });
  });
});
