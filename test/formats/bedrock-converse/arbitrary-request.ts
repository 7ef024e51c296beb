// Canonical requests within what Converse expresses, in the form decoding produces: roles
// alternate (user and tool runs merge into one Converse user turn), reasoning is Claude's,
// tool results answer ids no call had (so no tool name is looked up), documents have a valid name.
import fc from 'fast-check';
import type { AssistantPart, CanonicalRequest, Message, UserPart } from '../../../src/canonical/request.js';

const text = fc.string({ maxLength: 20 });
const cache = fc.option(fc.constant({ type: 'ephemeral' as const }), { nil: undefined });
const base64 = fc.base64String({ minLength: 4, maxLength: 24 });

const userPart: fc.Arbitrary<UserPart> = fc.oneof(
  fc.record({ type: fc.constant('text' as const), text, cacheControl: cache }, { requiredKeys: ['type', 'text'] }),
  fc.record({ type: fc.constant('image' as const), source: fc.record({ type: fc.constant('base64' as const), mediaType: fc.constantFrom('image/png', 'image/jpeg', 'image/gif', 'image/webp'), data: base64 }) }),
  fc.record({
    type: fc.constant('document' as const),
    source: fc.record({ type: fc.constant('base64' as const), mediaType: fc.constantFrom('application/pdf', 'text/plain', 'text/csv', 'text/markdown'), data: base64 }),
    title: fc.stringMatching(/^[A-Za-z0-9]{1,10}$/),
  }),
);

const assistantPart: fc.Arbitrary<AssistantPart> = fc.oneof(
  fc.record({ type: fc.constant('text' as const), text }),
  fc.record({ type: fc.constant('tool-call' as const), id: fc.stringMatching(/^call_[a-z0-9]{1,6}$/), name: fc.stringMatching(/^[a-z_]{1,8}$/), arguments: fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), fc.oneof(fc.integer(), text), { maxKeys: 3 }).map((args) => JSON.stringify(args)) }),
  fc.record({ type: fc.constant('reasoning' as const), text, signature: base64, origin: fc.constant('anthropic' as const) }),
  fc.record({ type: fc.constant('reasoning' as const), text: fc.constant(''), redacted: base64, origin: fc.constant('anthropic' as const) }),
);

// One Converse user turn: a run of tool results (results of unseen calls), then user content.
const userTurn: fc.Arbitrary<Message[]> = fc.tuple(
  fc.array(fc.record({
    type: fc.constant('tool-result' as const), toolCallId: fc.stringMatching(/^result_[a-z0-9]{1,6}$/),
    content: fc.array(fc.record({ type: fc.constant('text' as const), text }), { maxLength: 2 }), isError: fc.option(fc.constant(true), { nil: undefined }),
  }, { requiredKeys: ['type', 'toolCallId', 'content'] }), { maxLength: 2 }),
  fc.array(userPart, { minLength: 1, maxLength: 3 }),
).map(([results, content]) => [...(results.length > 0 ? [{ role: 'tool' as const, content: results }] : []), { role: 'user' as const, content }]);

const conversation = fc.array(fc.tuple(userTurn, fc.array(assistantPart, { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 3 })
  .map((turns) => turns.flatMap(([user, assistant]) => [...user, { role: 'assistant' as const, content: assistant }]));

export function arbitraryBedrockRequest(): fc.Arbitrary<CanonicalRequest> {
  return fc.record({
    model: fc.constantFrom('anthropic.claude-3-5-haiku-20241022-v1:0', 'amazon.nova-pro-v1:0'),
    system: fc.array(fc.record({ type: fc.constant('text' as const), text, cacheControl: cache }, { requiredKeys: ['type', 'text'] }), { maxLength: 2 }),
    messages: conversation,
    stream: fc.boolean(),
    extensions: fc.constant({}),
    maxOutputTokens: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: undefined }),
    temperature: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    topP: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    topK: fc.option(fc.integer({ min: 1, max: 500 }), { nil: undefined }),
    stopSequences: fc.option(fc.array(text, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    tools: fc.option(fc.array(fc.record({ type: fc.constant('function' as const), name: fc.stringMatching(/^[a-z_]{1,8}$/), description: fc.option(text, { nil: undefined }), parameters: fc.constant({ type: 'object', properties: {} }) }, { requiredKeys: ['type', 'name', 'parameters'] }), { minLength: 1, maxLength: 2 }), { nil: undefined }),
    reasoning: fc.option(fc.record({ budgetTokens: fc.integer({ min: 1024, max: 8000 }), include: fc.constant(true) }), { nil: undefined }),
  }, { requiredKeys: ['model', 'system', 'messages', 'stream', 'extensions'] });
}
