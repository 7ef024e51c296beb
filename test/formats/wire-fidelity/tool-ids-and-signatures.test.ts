// Across dialects: a tool-call id outside Anthropic's pattern maps injectively and back, and
// another provider's thinking signature never reaches Anthropic as if Anthropic had signed it.
import { describe, expect, it } from 'vitest';
import type { CodecContext } from '../../../src/canonical/codec.js';
import type { StreamPart } from '../../../src/canonical/response.js';
import { codecFor } from '../../../src/formats/codec-registry.js';
import { stripForeignThinking } from '../../../src/formats/anthropic-messages/strip-foreign-thinking.js';
import { fromSafeToolId, toSafeToolId } from '../../../src/formats/shared/safe-tool-id.js';

const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;
const context: CodecContext = { ids: () => 'fixed', now: () => 1_700_000_000 };
const anthropic = codecFor('anthropic-messages');

type Json = Record<string, unknown>;
type Block = Json & { type: string };

/** What an Anthropic client (Claude Code) receives for a provider's answer. */
function toAnthropicClient(codecName: Parameters<typeof codecFor>[0], providerAnswer: unknown): Block[] {
  const decoded = codecFor(codecName).decodeResponse(providerAnswer).value;
  return (anthropic.encodeResponse(decoded, context).content as Block[]);
}

/** The client's next turn, with the assistant content it received, as the provider would get it. */
function nextTurn(codecName: Parameters<typeof codecFor>[0], assistant: Block[], toolResults: Block[]) {
  const body = {
    model: 'm', max_tokens: 100,
    messages: [{ role: 'user', content: 'go' }, { role: 'assistant', content: assistant }, { role: 'user', content: toolResults.length ? toolResults : 'and?' }],
  };
  const canonical = anthropic.decodeRequest(body, { model: 'm', stream: false });
  return codecFor(codecName).encodeRequest(canonical.value);
}

describe('tool-call ids', () => {
  it('maps every id into the pattern injectively, stably and reversibly', () => {
    const ids = ['functions.Bash:0', 'functions_Bash_0', 'functions.Bash_0', 'call.1', 'call_1', 'call:1', 'gwid_abc', 'toolu_01ABC', 'a b', 'é', ''];
    const mapped = ids.map(toSafeToolId);
    for (const id of mapped) expect(id).toMatch(ANTHROPIC_ID);
    expect(new Set(mapped).size).toBe(ids.length);
    expect(ids.map(toSafeToolId)).toEqual(mapped);
    expect(mapped.map(fromSafeToolId)).toEqual(ids);
    expect(toSafeToolId('toolu_01ABC')).toBe('toolu_01ABC');
    expect(toSafeToolId('call_1')).toBe('call_1');
  });

  it('an OpenAI-shaped provider id crosses to an Anthropic client valid and comes back as it was', () => {
    const answer = {
      id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'kimi',
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [
        { id: 'functions.Bash:0', type: 'function', function: { name: 'Bash', arguments: '{"command":"ls"}' } },
        { id: 'functions_Bash_0', type: 'function', function: { name: 'Bash', arguments: '{"command":"pwd"}' } },
      ] } }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    };
    const content = toAnthropicClient('openai-chat', answer);
    const ids = content.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(ANTHROPIC_ID);
    expect(new Set(ids).size).toBe(2);
    const results = ids.map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' }));
    const sent = nextTurn('openai-chat', content, results).value as { messages: Array<Json & { tool_calls?: Array<{ id: string }>; tool_call_id?: string }> };
    const callIds = sent.messages.flatMap((message) => (message.tool_calls ?? []).map((call) => call.id));
    const resultIds = sent.messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id);
    expect(callIds).toEqual(['functions.Bash:0', 'functions_Bash_0']);
    expect(resultIds).toEqual(['functions.Bash:0', 'functions_Bash_0']);
  });

  it('a Bedrock client gets valid toolUseIds too', () => {
    const answer = {
      id: 'c', object: 'chat.completion', created: 1, model: 'kimi',
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call.1', type: 'function', function: { name: 'Bash', arguments: '{}' } }] } }],
    };
    const decoded = codecFor('openai-chat').decodeResponse(answer).value;
    const bedrock = codecFor('bedrock-converse').encodeResponse(decoded, context) as { output: { message: { content: Array<{ toolUse?: { toolUseId: string } }> } } };
    const id = bedrock.output.message.content.find((block) => block.toolUse)?.toolUse?.toolUseId;
    expect(id).toMatch(ANTHROPIC_ID);
    expect(fromSafeToolId(id!)).toBe('call.1');
  });
});

describe('thinking signatures are never forged', () => {
  const geminiAnswer = {
    candidates: [{ index: 0, finishReason: 'STOP', content: { role: 'model', parts: [
      { text: 'Let me think.', thought: true, thoughtSignature: 'R0VNSU5JLVNJRw==' }, { text: 'Done.' },
    ] } }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  };

  it('a Gemini thought reaches the Anthropic client without a Gemini signature passed off as Anthropic’s', () => {
    const content = toAnthropicClient('google-genai', geminiAnswer);
    const thinking = content.find((block) => block.type === 'thinking');
    expect(thinking?.signature).not.toBe('R0VNSU5JLVNJRw==');
    expect(String(thinking?.signature)).toMatch(/^gwsig\.v1\.google\./);
  });

  it('sent back to Anthropic the block is dropped with a warning; sent back to Gemini it carries Gemini’s own signature', () => {
    const content = toAnthropicClient('google-genai', geminiAnswer);
    const toAnthropic = nextTurn('anthropic-messages', content, []);
    const blocks = (toAnthropic.value.messages as Array<{ content: Block[] }>).flatMap((message) => message.content);
    expect(blocks.some((block) => block.type === 'thinking')).toBe(false);
    expect(toAnthropic.warnings.map((warning) => warning.code)).toContain('dropped:reasoning');
    const toGemini = nextTurn('google-genai', content, []).value as { contents: Array<{ parts: Json[] }> };
    const signatures = toGemini.contents.flatMap((entry) => entry.parts).map((part) => part.thoughtSignature).filter(Boolean);
    expect(signatures).toEqual(['R0VNSU5JLVNJRw==']);
  });

  it('OpenAI encrypted reasoning goes back to Responses unchanged and never to Anthropic', () => {
    const answer = {
      id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: 'gpt',
      output: [
        { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'hm' }], encrypted_content: 'ENC-OPENAI' },
        { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'hi', annotations: [] }] },
      ],
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    };
    const content = toAnthropicClient('openai-responses', answer);
    expect(String(content.find((block) => block.type === 'thinking')?.signature)).toMatch(/^gwsig\.v1\.openai\./);
    const toResponses = nextTurn('openai-responses', content, []).value as { input: Json[] };
    expect(toResponses.input.filter((item) => item.type === 'reasoning').map((item) => item.encrypted_content)).toEqual(['ENC-OPENAI']);
    const toAnthropic = nextTurn('anthropic-messages', content, []);
    expect(JSON.stringify(toAnthropic.value)).not.toContain('gwsig');
  });

  it('unsigned reasoning (reasoning_content) is marked unsigned, and dropped before Anthropic', () => {
    const answer = {
      id: 'c', object: 'chat.completion', created: 1, model: 'deepseek',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'hi', reasoning_content: 'thinking aloud' } }],
    };
    const content = toAnthropicClient('openai-chat', answer);
    expect(content.find((block) => block.type === 'thinking')?.signature).toBe('gwsig.v1.none.');
    const toAnthropic = nextTurn('anthropic-messages', content, []);
    expect(JSON.stringify(toAnthropic.value)).not.toContain('thinking aloud');
  });

  it('streams: a Gemini signature and unsigned reasoning go out as gw carriers, Anthropic’s own as it came', () => {
    const encode = (parts: StreamPart[]): string => {
      const encoder = anthropic.createStreamEncoder({ model: 'm', context });
      return parts.map((part) => encoder.push(part)).join('') + encoder.end();
    };
    const reasoning = (opaque: Partial<Extract<StreamPart, { type: 'reasoning-opaque' }>> | null): StreamPart[] => [
      { type: 'response-start', id: 'msg_1', model: 'm' },
      { type: 'reasoning-start', index: 0 }, { type: 'reasoning-delta', index: 0, delta: 'hm' },
      ...(opaque ? [{ type: 'reasoning-opaque' as const, index: 0, ...opaque }] : []),
      { type: 'reasoning-end', index: 0 }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: {} },
    ];
    expect(encode(reasoning({ signature: 'G', origin: 'google' }))).toContain('"signature":"gwsig.v1.google.G"');
    expect(encode(reasoning(null))).toContain('"signature":"gwsig.v1.none."');
    expect(encode(reasoning({ signature: 'EqAnthropic', origin: 'anthropic' }))).toContain('"signature":"EqAnthropic"');
    expect(encode(reasoning({ encrypted: 'E' }))).toContain('"signature":"gwsig.v1.openai.E"');
  });

  it('a Gemini client streaming from Claude never gets an Anthropic signature as a thoughtSignature', () => {
    const encoder = codecFor('google-genai').createStreamEncoder({ model: 'm', context });
    const parts: StreamPart[] = [
      { type: 'response-start', id: 'msg_1', model: 'm' }, { type: 'reasoning-start', index: 0 }, { type: 'reasoning-delta', index: 0, delta: 'hm' },
      { type: 'reasoning-opaque', index: 0, signature: 'EqAnthropicSig' }, { type: 'reasoning-end', index: 0 },
      { type: 'text-start', index: 1 }, { type: 'text-delta', index: 1, delta: 'hi' }, { type: 'text-end', index: 1 },
      { type: 'reasoning-opaque', index: 2, signature: 'R2VtaW5p', origin: 'google' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'STOP' }, usage: {} },
    ];
    const text = parts.map((part) => encoder.push(part)).join('') + encoder.end();
    expect(text).not.toContain('EqAnthropicSig');
    expect(text).toContain('"thoughtSignature":"R2VtaW5p"');
  });

  it('same format: carried thinking is stripped before Anthropic, a body without it is left alone', () => {
    const body = { model: 'm', messages: [
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'a', signature: 'gwsig.v1.google.X' }, { type: 'thinking', thinking: 'b', signature: 'EqReal' }, { type: 'text', text: 'hi' }] },
    ] };
    const stripped = stripForeignThinking(body);
    expect(stripped?.warnings.map((warning) => warning.code)).toEqual(['dropped:reasoning']);
    expect((stripped?.body.messages as Array<{ content: Block[] }>)[0]!.content.map((block) => block.thinking ?? block.text)).toEqual(['b', 'hi']);
    const clean = { model: 'm', messages: [{ role: 'user', content: 'gwsig is just a word here' }] };
    expect(stripForeignThinking(clean)).toBeNull();
  });
});
