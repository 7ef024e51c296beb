// Codex groups MCP tools under `namespace` tools. Translated to another provider they
// travel as `<namespace>__<name>`; the answer to Codex must name them as Codex does,
// {namespace, name}, or it cannot dispatch the call.
import { describe, expect, it } from 'vitest';
import type { CodecContext } from '../../../src/canonical/codec.js';
import type { CanonicalResponse } from '../../../src/canonical/response.js';
import { openAiResponsesCodec } from '../../../src/formats/openai-responses/index.js';
import { responsesContext } from './responses-context.js';

const body = {
  model: 'anthropic/claude-sonnet-4-5',
  input: 'list the files',
  tools: [
    { type: 'function', name: 'exec_command', parameters: { type: 'object', properties: {} } },
    { type: 'namespace', name: 'mcp_files', description: 'A files server', tools: [{ type: 'function', name: 'list', parameters: { type: 'object', properties: {} } }] },
  ],
};

const contextFor = (): CodecContext => responsesContext(body);

const answer: CanonicalResponse = {
  id: 'msg_1', model: 'claude', extensions: {}, usage: { inputTokens: 5, outputTokens: 3 },
  finishReason: { unified: 'tool-calls', raw: 'tool_use' },
  content: [
    { type: 'tool-call', id: 'call_a', name: 'mcp_files__list', arguments: '{}' },
    { type: 'tool-call', id: 'call_b', name: 'exec_command', arguments: '{"cmd":"ls"}' },
  ],
};

describe('namespaced tools back to a Responses client', () => {
  it('the request is flattened on the way in', () => {
    const names = contextFor().request!.tools!.map((tool) => tool.name);
    expect(names).toEqual(['exec_command', 'mcp_files__list']);
  });

  it('a JSON answer names the call {namespace, name}; a plain function stays plain', () => {
    const encoded = openAiResponsesCodec.encodeResponse(answer, contextFor()) as { output: Array<Record<string, unknown>> };
    expect(encoded.output[0]).toMatchObject({ type: 'function_call', namespace: 'mcp_files', name: 'list', call_id: 'call_a' });
    expect(encoded.output[1]).toMatchObject({ type: 'function_call', name: 'exec_command' });
    expect(encoded.output[1]).not.toHaveProperty('namespace');
  });

  it('a streamed answer does the same in output_item.added and .done', () => {
    const encoder = openAiResponsesCodec.createStreamEncoder({ model: 'm', context: contextFor() });
    let text = encoder.push({ type: 'response-start', id: 'msg_1', model: 'claude' });
    text += encoder.push({ type: 'tool-call-start', index: 0, id: 'call_a', name: 'mcp_files__list' });
    text += encoder.push({ type: 'tool-call-delta', index: 0, argumentsDelta: '{}' });
    text += encoder.push({ type: 'tool-call-end', index: 0 });
    text += encoder.push({ type: 'finish', finishReason: { unified: 'tool-calls' }, usage: {} });
    text += encoder.end();
    const items = text.split('\n\n').filter((frame) => frame.includes('response.output_item.')).map((frame) => JSON.parse(frame.split('data: ')[1]!).item);
    expect(items).toHaveLength(2);
    for (const item of items) expect(item).toMatchObject({ type: 'function_call', namespace: 'mcp_files', name: 'list' });
  });
});
