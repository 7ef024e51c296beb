// Tool arguments in a whole JSON answer are read as the client's JSON.parse gives them back
// (issue 36): an escaped secret in OpenAI's `function.arguments` string, same-format or in a
// translated answer's canonical tool call, is found; the answer is not changed.
import { describe, expect, it } from 'vitest';
import { createDlpResolver } from '../../src/dlp/dlp-config.js';
import { decodeJsonStrings } from '../../src/dlp/read-json-text.js';
import type { Governed } from '../../src/pipeline/govern/govern-request.js';
import { createEveryStringReader, scanOutputAnswer, scanOutputJson, scanOutputStream } from '../../src/pipeline/relay/scan-output.js';
import type { RequestTrace } from '../../src/pipeline/request-trace.js';
import { piecesOf, SECRET } from '../support/output-dlp-cells.js';
import { codecFor } from '../../src/formats/codec-registry.js';

const governed: Governed = { policies: [], dlp: createDlpResolver().resolve([{ scope: '*', output_scan: true }], 'team', null), directKey: null, settle: () => undefined };
const trace = { noteDlp: () => undefined, noteOutcome: () => undefined } as unknown as RequestTrace;
const escaped = JSON.stringify({ body: `here: ${SECRET}` }).replace(SECRET, `\\u0067${SECRET.slice(1)}`);

describe('a whole answer\'s tool arguments', () => {
  it('same-format: an escaped secret in function.arguments is blocked', () => {
    const answer = { id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 't', type: 'function', function: { name: 'write', arguments: escaped } }] }, finish_reason: 'tool_calls' }] };
    expect(() => scanOutputJson(Buffer.from(JSON.stringify(answer)), governed, trace)).toThrow(/DLP rule "github_token"/);
  });

  it('translated: an escaped secret in a canonical tool call is blocked', () => {
    expect(() => scanOutputAnswer([{ type: 'tool-call', id: 't', name: 'write', arguments: escaped }], governed, trace)).toThrow(/DLP rule "github_token"/);
  });

  it('control: clean arguments pass, and a `__proto__` key is still read', () => {
    expect(() => scanOutputAnswer([{ type: 'tool-call', id: 't', name: 'write', arguments: '{"body":"hello"}' }], governed, trace)).not.toThrow();
    expect(JSON.stringify(decodeJsonStrings(JSON.parse(`{"__proto__":{"a":"${SECRET}"}}`)))).toContain(SECRET);
  });
});

describe('a resource stream that is no model answer (a streamed transcription)', () => {
  async function scanned(events: string[]): Promise<string> {
    async function* body() { for (const event of events) yield event; }
    let out = '';
    for await (const chunk of scanOutputStream(body(), governed, codecFor('openai-chat'), trace, createEveryStringReader)) out += String(chunk);
    return out;
  }
  const delta = (text: string) => `data: ${JSON.stringify({ type: 'transcript.text.delta', delta: text })}\n\n`;

  it('joins the deltas of one event type and stops a secret split across them', async () => {
    const out = await scanned(piecesOf(`she said ${SECRET} twice`).map(delta));
    expect(out).toContain('github_token');
    expect(out).not.toContain(SECRET.slice(0, 6));
  });

  it('control: a clean transcript passes byte for byte', async () => {
    const events = piecesOf('she said nothing at all, and that was fine by everyone present').map(delta);
    expect(await scanned(events)).toBe(events.join(''));
  });
});
