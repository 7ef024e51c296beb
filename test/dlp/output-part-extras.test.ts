// Fields a dialect's stream decoder has no canonical form for, which a same-format client
// still reads: the codec's output-part reader reads them too (Responses custom tool input,
// Anthropic server-tool input and citations), so a secret there is stopped like any other.
import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../src/canonical/codec.js';
import { resolveDlpSettings } from '../../src/dlp/dlp-config.js';
import { createOutputPartScan } from '../../src/dlp/scan-output-parts.js';
import { codecFor, type CodecName } from '../../src/formats/codec-registry.js';
import { piecesOf, SECRET } from '../support/output-dlp-cells.js';

const rules = resolveDlpSettings([], ['*']).rules;
const said = `here it is: ${SECRET} and that was all`;
const ev = (type: string, data: Record<string, unknown>): WireEvent => ({ event: type, data: JSON.stringify({ type, ...data }) });

/** The rule that stopped the stream, and how many events left before it. */
function scan(dialect: CodecName, events: WireEvent[]): { blockedBy: string | null; released: number } {
  const reader = codecFor(dialect).createOutputPartReader();
  const hold = createOutputPartScan<WireEvent>(rules);
  let released = 0;
  for (const event of events) {
    const step = hold.push(event, reader.push(event));
    released += step.release.length;
    if (step.blocked !== null) return { blockedBy: step.blocked.rule.detector.id, released };
  }
  return { blockedBy: null, released: released + hold.end().length };
}

describe('what the decoders skip is still read', () => {
  it('a Responses custom tool input (apply_patch), in deltas', () => {
    const events = [ev('response.created', { response: { id: 'r', model: 'm' } }),
      ev('response.output_item.added', { output_index: 0, item: { type: 'custom_tool_call', call_id: 'c', name: 'apply_patch', input: '' } }),
      ...piecesOf(`+const token = "${SECRET}";\n`).map((delta) => ev('response.custom_tool_call_input.delta', { output_index: 0, delta }))];
    expect(scan('openai-responses', events).blockedBy).toBe('github_token');
  });

  it('an Anthropic server tool\'s input, in deltas', () => {
    const events = [ev('message_start', { message: { id: 'm', model: 'm', usage: {} } }),
      ev('content_block_start', { index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} } }),
      ...piecesOf(JSON.stringify({ query: said })).map((partial_json) => ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json } }))];
    expect(scan('anthropic-messages', events).blockedBy).toBe('github_token');
  });

  it('an Anthropic citation\'s cited text', () => {
    const events = [ev('message_start', { message: { id: 'm', model: 'm', usage: {} } }),
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'citations_delta', citation: { type: 'web_search_result_location', cited_text: said, url: 'https://example.com' } } })];
    expect(scan('anthropic-messages', events).blockedBy).toBe('github_token');
  });

  it('control: the same events without the secret pass whole', () => {
    const events = [ev('message_start', { message: { id: 'm', model: 'm', usage: {} } }),
      ev('content_block_start', { index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} } }),
      ...piecesOf(JSON.stringify({ query: 'the weather in Paris' })).map((partial_json) => ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json } })),
      ev('content_block_stop', { index: 0 })];
    expect(scan('anthropic-messages', events)).toEqual({ blockedBy: null, released: events.length });
  });
});
