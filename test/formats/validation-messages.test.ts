// One wording for a bad request body whatever the client's dialect (src/formats/shared/json-guards.ts):
// a wrong field reads "Invalid value for 'x': expected …", an absent one "Missing required parameter: 'x'.",
// the way OpenAI words its own 400s; the param names the field in the dialect's own spelling.
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.js';
import { codecFor, type CodecName } from '../../src/formats/codec-registry.js';

const OPTIONS = { model: 'm', stream: false };

function refusal(name: CodecName, body: unknown): GatewayError {
  try {
    codecFor(name).decodeRequest(body, OPTIONS);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error(`${name} accepted ${JSON.stringify(body)}`);
}

const user = { role: 'user', content: 'hi' };

/** A field of the wrong type, per dialect: [dialect, body, param, expected]. */
const WRONG: Array<[CodecName, unknown, string, string]> = [
  ['openai-chat', { messages: [user], temperature: 'hot' }, 'temperature', 'a number'],
  ['openai-completions', { prompt: 'hi', temperature: 'hot' }, 'temperature', 'a number'],
  ['openai-responses', { input: 'hi', temperature: 'hot' }, 'temperature', 'a number'],
  ['anthropic-messages', { messages: [user], temperature: 'hot' }, 'temperature', 'a number'],
  ['google-genai', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { temperature: 'hot' } }, 'generationConfig.temperature', 'a number'],
  ['bedrock-converse', { messages: [], inferenceConfig: { temperature: 'hot' } }, 'inferenceConfig.temperature', 'a number'],
  ['openai-chat', { messages: [user], max_tokens: 0 }, 'max_tokens', 'a positive integer'],
  ['openai-completions', { prompt: 'hi', n: -1 }, 'n', 'a non-negative integer'],
  ['anthropic-messages', { messages: 'hi' }, 'messages', 'an array'],
  ['bedrock-converse', { messages: [{ role: 'system', content: [] }] }, 'messages[0].role', '"user" or "assistant"'],
];

/** A required field left out, per dialect. */
const MISSING: Array<[CodecName, unknown, string]> = [
  ['openai-chat', { messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
  ['openai-completions', {}, 'prompt'],
  ['anthropic-messages', { messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] }, 'messages[0].content[0].tool_use_id'],
  ['anthropic-messages', {}, 'messages'],
  ['bedrock-converse', { messages: [{ role: 'user', content: [{ toolResult: { content: [] } }] }] }, 'messages[0].content[0].toolResult.toolUseId'],
];

describe('validation messages: one wording in every dialect', () => {
  it.each(WRONG)('%s: a wrong %s %j → %s', (name, body, param, expected) => {
    const error = refusal(name, body);
    expect(error.code).toBe('GW_ERR_REQUEST_INVALID');
    expect(error.param).toBe(param);
    expect(error.message).toBe(`Invalid value for '${param}': expected ${expected}.`);
  });

  it.each(MISSING)('%s: %j is missing %s', (name, body, param) => {
    const error = refusal(name, body);
    expect(error.code).toBe('GW_ERR_REQUEST_INVALID');
    expect(error.param).toBe(param);
    expect(error.message).toBe(`Missing required parameter: '${param}'.`);
  });
});
