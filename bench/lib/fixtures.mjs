// Deterministic provider responses and request bodies for the mock upstream and the load generator.
// Shapes follow the providers' documented wire formats (ids, usage blocks, one SSE event per write):
// https://platform.openai.com/docs/api-reference/chat/object
// https://platform.openai.com/docs/api-reference/chat-streaming
// https://docs.anthropic.com/en/api/messages-streaming
import { claudeCodeBody } from './coding-agent-body.mjs';

const answerPieces = [
  'An AI gateway', ' is a proxy', ' between your', ' applications and', ' the model',
  ' providers they', ' call. It', ' gives every', ' team one', ' endpoint and',
  ' one kind of', ' key, routes', ' each request', ' to a provider,', ' retries on',
  ' failures, enforces', ' budgets and', ' rate limits,', ' and records usage', ' and cost per call.',
];
const answer = answerPieces.join('');
const created = 1741569952;
const usage = { prompt_tokens: 57, completion_tokens: 52, total_tokens: 109 };

const openaiUsage = {
  ...usage,
  prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};
const chunkBase = { id: 'chatcmpl-Bq7ZgW2rKc1nVd8sLm4xT0aYpE3uF', object: 'chat.completion.chunk', created, model: 'gpt-4o-mini-2024-07-18', service_tier: 'default', system_fingerprint: 'fp_34a54ae93c' };
const chunk = (delta, finish = null) => ({ ...chunkBase, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
const sse = (value) => Buffer.from(`data: ${JSON.stringify(value)}\n\n`);

/** OpenAI chat: role, 20 content pieces, finish, usage (stream_options.include_usage), [DONE]. */
export const openaiChat = {
  json: Buffer.from(JSON.stringify({
    id: chunkBase.id, object: 'chat.completion', created, model: chunkBase.model,
    choices: [{ index: 0, message: { role: 'assistant', content: answer, refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
    usage: openaiUsage, service_tier: 'default', system_fingerprint: chunkBase.system_fingerprint,
  })),
  events: [
    sse(chunk({ role: 'assistant', content: '', refusal: null })),
    ...answerPieces.map((content) => sse(chunk({ content }))),
    sse(chunk({}, 'stop')),
    sse({ ...chunkBase, choices: [], usage: openaiUsage }),
    Buffer.from('data: [DONE]\n\n'),
  ],
  headers: {
    'x-request-id': 'req_8f2c51d0a9b34e7c9d1e6f20a4b3c5d7', 'openai-organization': 'user-bench', 'openai-processing-ms': '388',
    'openai-version': '2020-10-01', 'x-ratelimit-limit-requests': '10000', 'x-ratelimit-limit-tokens': '10000000',
    'x-ratelimit-remaining-requests': '9999', 'x-ratelimit-remaining-tokens': '9999943', 'x-ratelimit-reset-requests': '6ms', 'x-ratelimit-reset-tokens': '0s',
  },
};

const anthropicUsage = { input_tokens: 57, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 52, service_tier: 'standard' };
const message = { id: 'msg_01H7kq2ZtXvbN3cR8pWfYd5s', type: 'message', role: 'assistant', model: 'claude-sonnet-4-20250514' };
const event = (name, value) => Buffer.from(`event: ${name}\ndata: ${JSON.stringify(value)}\n\n`);

/** Anthropic messages: message_start, content_block_start, ping, 20 deltas, block stop, message_delta, message_stop. */
export const anthropicMessages = {
  json: Buffer.from(JSON.stringify({ ...message, content: [{ type: 'text', text: answer }], stop_reason: 'end_turn', stop_sequence: null, usage: anthropicUsage })),
  events: [
    event('message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...anthropicUsage, output_tokens: 1 } } }),
    event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    event('ping', { type: 'ping' }),
    ...answerPieces.map((text) => event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
    event('content_block_stop', { type: 'content_block_stop', index: 0 }),
    event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 52 } }),
    event('message_stop', { type: 'message_stop' }),
  ],
  headers: {
    'request-id': 'req_011CRk2mW8sTn4yVbQ3xLp7d', 'anthropic-organization-id': '5b0e3c1a-7d2f-4e9b-a6c8-1f0d2e3b4a5c',
    'anthropic-ratelimit-requests-limit': '4000', 'anthropic-ratelimit-requests-remaining': '3999', 'anthropic-ratelimit-requests-reset': '2025-01-01T00:00:00Z',
  },
};

const system = 'You are a concise assistant for a platform engineering team. Answer in one paragraph.';
const question = 'In a few sentences, explain what an AI gateway is and why a company would run one in front of several LLM providers.';

/** The scenarios the harness can run: request, and how to tell a complete answer from a broken one. */
export const scenarios = {
  chat: {
    dialect: 'openai', path: '/v1/chat/completions', stream: false,
    body: { model: 'gpt-4o-mini', messages: [{ role: 'system', content: system }, { role: 'user', content: question }], temperature: 0.2, max_tokens: 256 },
    looksComplete: (text) => text.includes('"chat.completion"') && text.includes('"usage"'),
  },
  'chat-stream': {
    dialect: 'openai', path: '/v1/chat/completions', stream: true,
    body: { model: 'gpt-4o-mini', messages: [{ role: 'system', content: system }, { role: 'user', content: question }], temperature: 0.2, max_tokens: 256, stream: true, stream_options: { include_usage: true } },
    looksComplete: (text) => text.includes('chat.completion.chunk') && text.trimEnd().endsWith('data: [DONE]'),
  },
  messages: {
    dialect: 'anthropic', path: '/v1/messages', stream: false,
    body: { model: 'claude-sonnet-4-20250514', max_tokens: 256, system, messages: [{ role: 'user', content: question }] },
    looksComplete: (text) => text.includes('"type":"message"') && text.includes('"usage"'),
  },
  'messages-stream': {
    dialect: 'anthropic', path: '/v1/messages', stream: true,
    body: { model: 'claude-sonnet-4-20250514', max_tokens: 256, system, messages: [{ role: 'user', content: question }], stream: true },
    looksComplete: (text) => text.includes('content_block_delta') && text.includes('message_stop'),
  },
  // The same translation without streaming: gw reads the provider's whole Chat answer and writes an
  // Anthropic message (the bare proxy and direct runs get the mock's native Anthropic answer).
  'messages-translated': {
    dialect: 'anthropic', path: '/v1/messages', stream: false,
    body: { model: 'openai/gpt-4o-mini', max_tokens: 256, system, messages: [{ role: 'user', content: question }] },
    looksComplete: (text) => text.includes('"type":"message"') && text.includes('"usage"'),
  },
  // An Anthropic client whose model gw routes to the OpenAI provider: gw translates the request to
  // Chat Completions and the chat stream back to Anthropic events. The bare proxy and direct runs
  // get the mock's native Anthropic stream for the same body, so the ratio prices translation.
  'messages-stream-translated': {
    dialect: 'anthropic', path: '/v1/messages', stream: true,
    body: { model: 'openai/gpt-4o-mini', max_tokens: 256, system, messages: [{ role: 'user', content: question }], stream: true },
    looksComplete: (text) => text.includes('content_block_delta') && text.includes('message_stop'),
  },
  // What coding agents send every turn (issue: coding-agent traffic): a ~200 KB Claude Code-shaped
  // streaming request, same format end to end, with gw's DLP at its defaults and the audit record.
  'messages-large-stream': {
    dialect: 'anthropic', path: '/v1/messages', stream: true,
    body: { ...claudeCodeBody(true), model: 'claude-sonnet-4-20250514' },
    looksComplete: (text) => text.includes('content_block_delta') && text.includes('message_stop'),
  },
  'messages-1mb-stream': {
    dialect: 'anthropic', path: '/v1/messages', stream: true,
    body: { ...claudeCodeBody(true, 1024 * 1024), model: 'claude-sonnet-4-20250514' },
    looksComplete: (text) => text.includes('content_block_delta') && text.includes('message_stop'),
  },
};

/** Headers a client of that dialect sends; the key is gw's virtual key (ignored by the mock and the bare proxy). */
export function clientHeaders(dialect, key) {
  const headers = { 'content-type': 'application/json', 'user-agent': 'gw-bench/1' };
  if (dialect === 'anthropic') return { ...headers, 'x-api-key': key, 'anthropic-version': '2023-06-01' };
  return { ...headers, authorization: `Bearer ${key}` };
}
