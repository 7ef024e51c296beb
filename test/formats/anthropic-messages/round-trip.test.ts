// Property: for any canonical request (and response) within what Messages can express,
// decode(encode(x)) gives x back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssistantPart, CacheControl, CanonicalRequest, Message, UserPart } from '../../../src/canonical/request.js';
import type { CanonicalResponse } from '../../../src/canonical/response.js';
import { anthropicMessagesCodec as codec } from '../../../src/formats/anthropic-messages/index.js';
import { fixedContext } from '../codec-support.js';

const word = fc.string({ minLength: 1, maxLength: 12 });
const optional = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arbitrary, { nil: undefined });
const cache: fc.Arbitrary<CacheControl | undefined> = optional(fc.constantFrom<CacheControl>({ type: 'ephemeral' }, { type: 'ephemeral', ttl: '1h' }));
const withCache = <T extends object>(part: T, cacheControl: CacheControl | undefined): T => (cacheControl ? { ...part, cacheControl } : part);
const text = fc.tuple(word, cache).map(([value, cacheControl]) => withCache({ type: 'text' as const, text: value }, cacheControl));
const base64 = fc.base64String({ minLength: 4, maxLength: 24 });
const json = fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxKeys: 3 });
const source = fc.oneof(
  fc.webUrl().map((url) => ({ type: 'url' as const, url })),
  fc.record({ type: fc.constant('base64' as const), mediaType: fc.constantFrom('image/png', 'application/pdf'), data: base64 }),
  word.map((fileId) => ({ type: 'file' as const, fileId })),
);
const userPart: fc.Arbitrary<UserPart> = fc.oneof(
  text,
  fc.tuple(source, cache).map(([value, cacheControl]) => withCache({ type: 'image' as const, source: value }, cacheControl)),
  fc.tuple(source, optional(word)).map(([value, title]) => ({ type: 'document' as const, source: value, ...(title === undefined ? {} : { title }) })),
);
const assistantPart: fc.Arbitrary<AssistantPart> = fc.oneof(
  text,
  fc.record({ id: word.map((id) => `toolu_${id}`), name: word, arguments: json.map((value) => JSON.stringify(value)) }).map((call) => ({ type: 'tool-call' as const, ...call })),
  fc.record({ text: fc.string({ maxLength: 8 }), signature: word }).map((part) => ({ type: 'reasoning' as const, ...part, origin: 'anthropic' as const })),
  word.map((redacted) => ({ type: 'reasoning' as const, text: '', redacted, origin: 'anthropic' as const })),
);
const toolResult = fc.record({ toolCallId: word.map((id) => `result_${id}`), content: fc.array(text, { maxLength: 2 }), isError: optional(fc.constant(true)), cache })
  .map(({ cache: cacheControl, isError, ...result }) => withCache({ type: 'tool-result' as const, ...result, ...(isError ? { isError } : {}) }, cacheControl));
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.array(userPart, { minLength: 1, maxLength: 3 }).map((content) => ({ role: 'user' as const, content })),
  fc.array(assistantPart, { minLength: 1, maxLength: 3 }).map((content) => ({ role: 'assistant' as const, content })),
  fc.array(toolResult, { minLength: 1, maxLength: 2 }).map((content) => ({ role: 'tool' as const, content })),
);
/** A tool turn and the user turn after it share one Anthropic user message: never two tool messages in a row. */
const messages = fc.array(message, { maxLength: 6 })
  .map((list) => list.filter((item, index) => !(item.role === 'tool' && list[index - 1]?.role === 'tool')));

const request: fc.Arbitrary<CanonicalRequest> = fc.record({
  model: word,
  system: fc.array(text, { maxLength: 2 }),
  messages,
  tools: optional(fc.array(fc.record({ type: fc.constant('function' as const), name: word, description: optional(word), parameters: fc.constant({ type: 'object' }), strict: optional(fc.boolean()) }), { maxLength: 2 })),
  toolChoice: optional(fc.oneof(fc.constantFrom({ type: 'auto' as const }, { type: 'required' as const }), word.map((name) => ({ type: 'tool' as const, name })))),
  maxOutputTokens: fc.integer({ min: 1, max: 64_000 }),
  temperature: optional(fc.double({ min: 0, max: 1, noNaN: true })),
  topP: optional(fc.double({ min: 0, max: 1, noNaN: true })),
  topK: optional(fc.integer({ min: 1, max: 500 })),
  stopSequences: optional(fc.array(word, { maxLength: 3 })),
  responseFormat: optional(fc.record({ type: fc.constant('json-schema' as const), name: fc.constant('response'), schema: fc.constant({ type: 'object' }) })),
  reasoning: optional(fc.record({ budgetTokens: optional(fc.integer({ min: 1024, max: 32_000 })), include: fc.boolean(), effort: optional(fc.constantFrom('low' as const, 'medium' as const, 'high' as const, 'max' as const)) })),
  user: optional(word),
  stream: fc.boolean(),
  extensions: fc.constantFrom({}, { anthropic: { context_management: { edits: [] }, service_tier: 'auto' } }),
}, { requiredKeys: ['model', 'system', 'messages', 'stream', 'extensions', 'maxOutputTokens'] }).chain((value) =>
  // disable_parallel_tool_use lives inside tool_choice, so it needs one.
  fc.constantFrom(undefined, ...(value.toolChoice ? [false] : [])).map((parallelToolCalls) => ({ ...value, parallelToolCalls })));

function withoutUndefined<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

describe('anthropic-messages round trips', () => {
  it('decodeRequest(encodeRequest(r)) equals r', () => {
    fc.assert(fc.property(request, (original) => {
      const canonical = withoutUndefined(original);
      const encoded = codec.encodeRequest(canonical);
      expect(encoded.warnings).toEqual([]);
      const decoded = codec.decodeRequest(encoded.value, { model: canonical.model, stream: canonical.stream });
      expect(withoutUndefined(decoded.value)).toEqual(canonical);
    }), { numRuns: 300 });
  });

  it('decodeResponse(encodeResponse(r)) equals r', () => {
    const response: fc.Arbitrary<CanonicalResponse> = fc.record({
      id: word, model: word,
      content: fc.array(assistantPart, { maxLength: 4 }).map((parts) => parts.map((part) => (part.type === 'text' ? { type: 'text' as const, text: part.text } : part))),
      raw: fc.constantFrom('end_turn', 'stop_sequence', 'max_tokens', 'tool_use', 'pause_turn', 'refusal'),
      uncached: fc.nat(), output: fc.nat(), cachedRead: fc.nat(), cacheWrite: fc.nat(),
    }).map(({ id, model, content, raw, uncached, output, cachedRead, cacheWrite }) => {
      const inputTokens = uncached + cachedRead + cacheWrite;
      const unified = ({ end_turn: 'stop', stop_sequence: 'stop', max_tokens: 'length', tool_use: 'tool-calls', pause_turn: 'other', refusal: 'content-filter' } as const)[raw as 'end_turn'];
      return {
        id, model, content, extensions: {}, finishReason: { unified, raw },
        usage: { inputTokens, outputTokens: output, cachedReadTokens: cachedRead, cacheWriteTokens: cacheWrite, totalTokens: inputTokens + output },
      };
    });
    fc.assert(fc.property(response, (canonical) => {
      const decoded = codec.decodeResponse(codec.encodeResponse(canonical, fixedContext()));
      expect(withoutUndefined(decoded.value)).toEqual(withoutUndefined(canonical));
    }), { numRuns: 200 });
  });
});
