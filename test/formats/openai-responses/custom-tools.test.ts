// Codex's `custom` tools (apply_patch) carry free-form input. Translated to another
// provider they travel as a function with one string argument `input`; the answer to
// Codex must come back as `custom_tool_call` {input}, or Codex cannot apply the patch.
import { describe, expect, it } from 'vitest';
import type { CodecContext } from '../../../src/canonical/codec.js';
import type { CanonicalResponse } from '../../../src/canonical/response.js';
import { anthropicMessagesCodec } from '../../../src/formats/anthropic-messages/index.js';
import { googleGenAiCodec } from '../../../src/formats/google-genai/index.js';
import { openAiResponsesCodec } from '../../../src/formats/openai-responses/index.js';
import { responsesContext } from './responses-context.js';

const GRAMMAR = 'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF';
const PATCH = '*** Begin Patch\n*** Add File: hello.txt\n+hello "world"\n*** End Patch\n';

const body = {
  model: 'anthropic/claude-sonnet-4-5',
  input: [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'add hello.txt' }] },
    { type: 'custom_tool_call', call_id: 'call_1', name: 'apply_patch', input: PATCH },
    { type: 'custom_tool_call_output', call_id: 'call_1', output: 'Done!' },
  ],
  tools: [
    { type: 'custom', name: 'apply_patch', description: 'Use the apply_patch tool to edit files.', format: { type: 'grammar', syntax: 'lark', definition: GRAMMAR } },
    { type: 'function', name: 'shell', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } } },
  ],
};

const contextFor = (): CodecContext => responsesContext(body);

const answer: CanonicalResponse = {
  id: 'msg_1', model: 'claude', extensions: {}, usage: { inputTokens: 5, outputTokens: 3 },
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  content: [{ type: 'tool-call', id: 'call_2', name: 'apply_patch', arguments: JSON.stringify({ input: PATCH }) }],
};

describe('Codex custom tools across dialects', () => {
  it('decodes to a function with one string argument whose description carries the grammar', () => {
    const decoded = openAiResponsesCodec.decodeRequest(body, { model: body.model, stream: false });
    const tool = decoded.value.tools!.find((candidate) => candidate.name === 'apply_patch')!;
    expect(tool.description).toBe('Use the apply_patch tool to edit files.');
    expect(tool.parameters).toMatchObject({ type: 'object', required: ['input'], properties: { input: { type: 'string' } } });
    expect(JSON.stringify(tool.parameters)).toContain('begin_patch hunk+');
    expect(decoded.warnings.map((warning) => warning.code)).toContain('mapped:tool:custom');
    expect(decoded.warnings.map((warning) => warning.code)).not.toContain('dropped:item.custom_tool_call');
  });

  it('an earlier custom call and its output reach Anthropic as tool_use {input} and tool_result', () => {
    const wire = anthropicMessagesCodec.encodeRequest(contextFor().request!).value as { tools: Array<Record<string, unknown>>; messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    expect(wire.tools.map((tool) => tool.name)).toEqual(['apply_patch', 'shell']);
    const use = wire.messages[1]!.content.find((part) => part.type === 'tool_use')!;
    expect(use).toMatchObject({ id: 'call_1', name: 'apply_patch', input: { input: PATCH } });
    const result = wire.messages[2]!.content.find((part) => part.type === 'tool_result')!;
    expect(result).toMatchObject({ tool_use_id: 'call_1' });
  });

  it('reaches Gemini as a function declaration with a string parameter', () => {
    const wire = googleGenAiCodec.encodeRequest(contextFor().request!).value as { tools: Array<{ functionDeclarations: Array<Record<string, unknown>> }> };
    const declaration = wire.tools[0]!.functionDeclarations.find((entry) => entry.name === 'apply_patch')!;
    expect(JSON.stringify(declaration)).toContain('"input"');
  });

  it('a JSON answer calling it is a custom_tool_call with the raw input', () => {
    const encoded = openAiResponsesCodec.encodeResponse(answer, contextFor()) as { output: Array<Record<string, unknown>> };
    expect(encoded.output[0]).toMatchObject({ type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: PATCH });
  });

  it('a streamed answer sends the input whole, then a custom_tool_call item', () => {
    const encoder = openAiResponsesCodec.createStreamEncoder({ model: 'm', context: contextFor() });
    const args = JSON.stringify({ input: PATCH });
    let text = encoder.push({ type: 'response-start', id: 'msg_1', model: 'claude' });
    text += encoder.push({ type: 'tool-call-start', index: 0, id: 'call_2', name: 'apply_patch' });
    text += encoder.push({ type: 'tool-call-delta', index: 0, argumentsDelta: args.slice(0, 12) });
    text += encoder.push({ type: 'tool-call-delta', index: 0, argumentsDelta: args.slice(12) });
    text += encoder.push({ type: 'tool-call-end', index: 0 });
    text += encoder.push({ type: 'finish', finishReason: { unified: 'tool-calls' }, usage: {} });
    const events = text.split('\n\n').filter((frame) => frame.includes('data: ')).map((frame) => JSON.parse(frame.split('data: ')[1]!) as Record<string, unknown>);
    const types = events.map((event) => event.type);
    expect(types).not.toContain('response.function_call_arguments.delta');
    expect(events.find((event) => event.type === 'response.custom_tool_call_input.done')).toMatchObject({ input: PATCH });
    const done = events.find((event) => event.type === 'response.output_item.done')!;
    expect(done.item).toMatchObject({ type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: PATCH });
    const completed = events.find((event) => event.type === 'response.completed') as { response: { output: Array<Record<string, unknown>> } };
    expect(completed.response.output[0]).toMatchObject({ type: 'custom_tool_call', input: PATCH });
  });

  it('a plain function tool stays a function_call', () => {
    const encoded = openAiResponsesCodec.encodeResponse({ ...answer, content: [{ type: 'tool-call', id: 'c', name: 'shell', arguments: '{"command":["ls"]}' }] }, contextFor()) as { output: Array<Record<string, unknown>> };
    expect(encoded.output[0]).toMatchObject({ type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}' });
  });
});
