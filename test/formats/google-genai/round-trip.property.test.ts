// For any canonical request (and response) Gemini can express, decode(encode(x)) returns x.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CodecContext } from '../../../src/canonical/codec.js';
import type { AssistantPart, CanonicalRequest, Message, UserPart } from '../../../src/canonical/request.js';
import type { CanonicalResponse } from '../../../src/canonical/response.js';
import { googleGenAiCodec } from '../../../src/formats/google-genai/index.js';

const text = fc.string({ minLength: 1, maxLength: 20 });
const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/);
const args = fc.dictionary(name, fc.oneof(fc.string(), fc.integer(), fc.boolean()), { maxKeys: 3 }).map((value) => JSON.stringify(value));
const userPart: fc.Arbitrary<UserPart> = fc.oneof(
  text.map((value) => ({ type: 'text' as const, text: value })),
  fc.base64String({ minLength: 4, maxLength: 12 }).map((data) => ({ type: 'image' as const, source: { type: 'base64' as const, mediaType: 'image/png', data } })),
  name.map((id) => ({ type: 'document' as const, source: { type: 'file' as const, fileId: `files/${id}`, mediaType: 'application/pdf' } })),
);
const assistantPart: fc.Arbitrary<AssistantPart> = fc.oneof(
  text.map((value) => ({ type: 'text' as const, text: value })),
  fc.record({ text, signature: fc.option(fc.base64String({ minLength: 4, maxLength: 12 }), { nil: undefined }) })
    .map(({ text: value, signature }) => ({ type: 'reasoning' as const, text: value, ...(signature === undefined ? {} : { signature }), origin: 'google' as const })),
);

/** A conversation: user, then assistant turns that may call tools answered by the next tool turn. */
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
  system: fc.array(text.map((value) => ({ type: 'text' as const, text: value })), { maxLength: 2 }),
  messages,
  tools: fc.option(fc.uniqueArray(name, { minLength: 1, maxLength: 3 }).map((names) => names.map((toolName) => ({
    type: 'function' as const, name: toolName, description: `does ${toolName}`,
    parameters: { type: 'object', properties: { value: { type: 'string', enum: ['a', 'b'] } }, required: ['value'] },
  }))), { nil: undefined }),
  maxOutputTokens: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: undefined }),
  temperature: fc.option(fc.double({ min: 0, max: 2, noNaN: true }), { nil: undefined }),
  topK: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
  stopSequences: fc.option(fc.array(text, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  reasoning: fc.option(fc.record({ budgetTokens: fc.integer({ min: 0, max: 30_000 }), include: fc.boolean() }), { nil: undefined }),
  responseFormat: fc.option(fc.constantFrom({ type: 'json' as const }, { type: 'text' as const }), { nil: undefined }),
}).map((fields) => {
  const value: CanonicalRequest = { model: 'gemini-2.5-flash', system: fields.system, messages: fields.messages, stream: false, extensions: {} };
  for (const [key, field] of Object.entries(fields)) if (field !== undefined && key !== 'system' && key !== 'messages') Object.assign(value, { [key]: field });
  if (value.tools) value.toolChoice = { type: 'tool', name: value.tools[0]!.name };
  return value;
});

const context: CodecContext = { ids: () => 'unused', now: () => 0 };

describe('google-genai round trips', () => {
  it('decodeRequest(encodeRequest(r)) equals r', () => {
    fc.assert(fc.property(request, (value) => {
      const encoded = googleGenAiCodec.encodeRequest(value);
      expect(googleGenAiCodec.decodeRequest(encoded.value, { model: value.model, stream: false }).value).toEqual(value);
    }), { numRuns: 300 });
  });

  it('decodeResponse(encodeResponse(r)) equals r', () => {
    const response: fc.Arbitrary<CanonicalResponse> = fc.record({
      content: fc.array(assistantPart, { maxLength: 4 }),
      calls: fc.array(fc.tuple(name, args), { maxLength: 2 }),
      input: fc.integer({ min: 0, max: 10_000 }), output: fc.integer({ min: 0, max: 1000 }), reasoning: fc.integer({ min: 0, max: 500 }),
      finish: fc.constantFrom({ unified: 'stop' as const, raw: 'STOP' }, { unified: 'length' as const, raw: 'MAX_TOKENS' }, { unified: 'content-filter' as const, raw: 'SAFETY' }),
    }).map(({ content, calls, input, output, reasoning, finish }) => {
      const callParts = calls.map(([callName, callArgs], index) => ({ type: 'tool-call' as const, id: `call_${index}`, name: callName, arguments: callArgs }));
      return {
        id: 'resp-1', model: 'gemini-2.5-pro', content: [...content, ...callParts],
        finishReason: callParts.length > 0 && finish.raw === 'STOP' ? { unified: 'tool-calls' as const, raw: 'STOP' } : finish,
        usage: { inputTokens: input, outputTokens: output + reasoning, reasoningTokens: reasoning, totalTokens: input + output + reasoning },
        extensions: {},
      };
    });
    fc.assert(fc.property(response, (value) => {
      expect(googleGenAiCodec.decodeResponse(googleGenAiCodec.encodeResponse(value, context)).value).toEqual(value);
    }), { numRuns: 300 });
  });
});
