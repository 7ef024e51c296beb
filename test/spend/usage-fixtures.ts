// One call per dialect with prompt caching and reasoning, as each provider reports it (JSON
// and stream), with the normalised usage and the cost worked out by hand from the providers'
// price pages (USD per million tokens, as of the bundled @pydantic/genai-prices 0.1.8):
//   gpt-4o      https://openai.com/api/pricing          in 2.50, cached in 1.25, out 10
//   o3          https://openai.com/api/pricing          in 2.00, cached in 0.50, out 8
//   sonnet 4    https://www.anthropic.com/pricing#api   in 3, cache write 5 min 3.75, 1 h 6, cache read 0.30, out 15
//   2.5 flash   https://ai.google.dev/gemini-api/docs/pricing  in 0.30 (audio 1.00), cache read 0.03, out (incl. thinking) 2.50
import type { Usage } from '../../src/canonical/usage.js';

export interface UsageFixture {
  name: string;
  codec: 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'google-genai' | 'bedrock-converse';
  target: { provider: string; kind: string; model: string };
  json: unknown;
  /** The same usage as the dialect streams it, one event's data per entry. */
  stream: string[];
  usage: Usage;
  /** By hand: see each fixture's comment. */
  nanoUsd: number;
}

export const USAGE_FIXTURES: UsageFixture[] = [
  {
    // 800 uncached × 2.50 + 1,200 cached × 1.25 + 500 out × 10 = 8,500 µ$ per token-million → $0.0085
    name: 'OpenAI Chat, gpt-4o, cached prompt',
    codec: 'openai-chat',
    target: { provider: 'openai', kind: 'openai', model: 'gpt-4o' },
    json: { id: 'c1', object: 'chat.completion', choices: [], usage: { prompt_tokens: 2000, completion_tokens: 500, total_tokens: 2500, prompt_tokens_details: { cached_tokens: 1200, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 } } },
    stream: [
      '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"}}],"usage":null}',
      '{"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":2000,"completion_tokens":500,"total_tokens":2500,"prompt_tokens_details":{"cached_tokens":1200,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0}}}',
    ],
    usage: { inputTokens: 2000, outputTokens: 500, cachedReadTokens: 1200, reasoningTokens: 0, totalTokens: 2500 },
    nanoUsd: 8_500_000,
  },
  {
    // 1,000 in × 2 + 2,000 out (1,500 of them reasoning) × 8 = 18,000 → $0.018
    name: 'OpenAI Responses, o3, reasoning',
    codec: 'openai-responses',
    target: { provider: 'openai', kind: 'openai', model: 'o3' },
    json: { id: 'r1', object: 'response', output: [], usage: { input_tokens: 1000, input_tokens_details: { cached_tokens: 0 }, output_tokens: 2000, output_tokens_details: { reasoning_tokens: 1500 }, total_tokens: 3000 } },
    stream: [
      '{"type":"response.created","response":{"id":"r1","usage":null}}',
      '{"type":"response.completed","response":{"id":"r1","usage":{"input_tokens":1000,"input_tokens_details":{"cached_tokens":0},"output_tokens":2000,"output_tokens_details":{"reasoning_tokens":1500},"total_tokens":3000}}}',
    ],
    usage: { inputTokens: 1000, outputTokens: 2000, cachedReadTokens: 0, reasoningTokens: 1500, totalTokens: 3000 },
    nanoUsd: 18_000_000,
  },
  {
    // 100 uncached × 3 + 2,000 read × 0.30 + 600 written (5 min) × 3.75 + 400 written (1 h) × 6 + 300 out × 15
    // = 300 + 600 + 2,250 + 2,400 + 4,500 = 10,050 → $0.01005
    name: 'Anthropic Messages, claude-sonnet-4, cache read and both cache lifetimes',
    codec: 'anthropic-messages',
    target: { provider: 'anthropic', kind: 'anthropic', model: 'claude-sonnet-4-20250514' },
    json: { id: 'm1', type: 'message', content: [], usage: { input_tokens: 100, cache_read_input_tokens: 2000, cache_creation_input_tokens: 1000, cache_creation: { ephemeral_5m_input_tokens: 600, ephemeral_1h_input_tokens: 400 }, output_tokens: 300 } },
    // message_start carries the input side and a first output count; message_delta the final (cumulative) counts.
    stream: [
      '{"type":"message_start","message":{"id":"m1","usage":{"input_tokens":100,"cache_read_input_tokens":2000,"cache_creation_input_tokens":1000,"cache_creation":{"ephemeral_5m_input_tokens":600,"ephemeral_1h_input_tokens":400},"output_tokens":1}}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}',
      '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"input_tokens":100,"cache_read_input_tokens":2000,"cache_creation_input_tokens":1000,"output_tokens":300}}',
    ],
    usage: { inputTokens: 3100, outputTokens: 300, cachedReadTokens: 2000, cacheWriteTokens: 1000, cacheWrite1hTokens: 400, totalTokens: 3400 },
    nanoUsd: 10_050_000,
  },
  {
    // 600 uncached × 0.30 + 400 implicit-cache hits × 0.03 + (200 + 300 thinking) out × 2.50 = 180 + 12 + 1,250 = 1,442 → $0.001442
    name: 'Gemini, gemini-2.5-flash, implicit cache hit and thinking',
    codec: 'google-genai',
    target: { provider: 'gemini', kind: 'gemini', model: 'gemini-2.5-flash' },
    json: { candidates: [], usageMetadata: { promptTokenCount: 1000, cachedContentTokenCount: 400, candidatesTokenCount: 200, thoughtsTokenCount: 300, totalTokenCount: 1500, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 1000 }] } },
    // Each chunk carries the running totals: the last one counts, nothing is added up.
    stream: [
      '{"candidates":[{"content":{"parts":[{"text":"h"}]}}],"usageMetadata":{"promptTokenCount":1000,"cachedContentTokenCount":400,"candidatesTokenCount":1,"thoughtsTokenCount":300,"totalTokenCount":1301}}',
      '{"candidates":[{"content":{"parts":[{"text":"i"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":1000,"cachedContentTokenCount":400,"candidatesTokenCount":200,"thoughtsTokenCount":300,"totalTokenCount":1500}}',
    ],
    usage: { inputTokens: 1000, outputTokens: 500, cachedReadTokens: 400, reasoningTokens: 300, totalTokens: 1500 },
    nanoUsd: 1_442_000,
  },
  {
    // 700 text × 0.30 + 300 audio × 1.00 + 100 out × 2.50 = 210 + 300 + 250 = 760 → $0.00076
    name: 'Gemini, gemini-2.5-flash, audio input',
    codec: 'google-genai',
    target: { provider: 'gemini', kind: 'gemini', model: 'gemini-2.5-flash' },
    json: { candidates: [], usageMetadata: { promptTokenCount: 1000, candidatesTokenCount: 100, totalTokenCount: 1100, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 700 }, { modality: 'AUDIO', tokenCount: 300 }] } },
    stream: ['{"candidates":[],"usageMetadata":{"promptTokenCount":1000,"candidatesTokenCount":100,"totalTokenCount":1100,"promptTokensDetails":[{"modality":"TEXT","tokenCount":700},{"modality":"AUDIO","tokenCount":300}]}}'],
    usage: { inputTokens: 1000, outputTokens: 100, audioInputTokens: 300, totalTokens: 1100 },
    nanoUsd: 760_000,
  },
];
