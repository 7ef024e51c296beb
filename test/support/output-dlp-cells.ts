// The output DLP matrix's cells (issue 36): for every dialect a provider streams in, the
// events of an answer that carries a secret in one kind of part, split and interleaved as
// a provider may. The unit matrix (test/dlp/output-part-matrix.test.ts) feeds them to the
// readers and decoders; the e2e matrix (test/e2e/output-dlp/) serves them from a loopback
// provider to a real `gw serve`. A cell a dialect cannot express says why instead.
import type { WireEvent } from '../../src/canonical/codec.js';
import type { CodecName } from '../../src/formats/codec-registry.js';
import type { OutputPartKind } from '../../src/dlp/scan-output-parts.js';

// Built in pieces so no scanner of this repository takes it for a real token.
export const SECRET = ['gh', 'p_', 'Zq8RkT2mWv5XnB7cYp3LdF9sHj4GtK6wQa1E'].join('');
export const BEFORE = 'here it is: ';
const AFTER = ' and that was all';
/** Filler for the other choice or tool call: none of its 3-character runs is in the secret. */
const OTHER = 'lorem ipsum dolor sit amet, consectetur adipiscing elit '.repeat(2);

/** Each cell and the part kind it proves. */
export const OUTPUT_CELLS = {
  text: 'text',
  reasoning: 'reasoning',
  'tool name': 'tool-name',
  'tool arguments whole': 'tool-arguments',
  'tool arguments split': 'tool-arguments',
  'tool arguments escaped': 'tool-arguments',
  'n > 1 interleaved': 'text',
  'parallel tool calls interleaved': 'tool-arguments',
  'error message': 'error',
} as const satisfies Record<string, OutputPartKind>;
export type OutputCell = keyof typeof OUTPUT_CELLS;

export interface Inexpressible { inexpressible: string }
export type CellEvents = WireEvent[] | Inexpressible;

/** `text` in pieces of `size` characters. */
export function piecesOf(text: string, size = 3): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size));
  return out;
}

/** Two lists alternated: a[0], b[0], a[1], b[1]… then the rest of the longer. */
function alternate<T>(a: T[], b: T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if (i < a.length) out.push(a[i] as T);
    if (i < b.length) out.push(b[i] as T);
  }
  return out;
}

/** The texts of a cell around `secret`. */
function textsOf(secret: string) {
  const said = `${BEFORE}${secret}${AFTER}`;
  const args = JSON.stringify({ path: 'notes.txt', body: said });
  return {
    said, args,
    otherArgs: JSON.stringify({ path: 'other.txt', body: OTHER }),
    // The secret's first letter written as a JSON escape, as the client's JSON.parse reads it back.
    escapedArgs: args.replace(secret, `\\u${secret.charCodeAt(0).toString(16).padStart(4, '0')}${secret.slice(1)}`),
    toolName: `run_${secret}`,
    secret,
  };
}
type Texts = ReturnType<typeof textsOf>;

/** The argument fragments of each tool-argument cell. */
function argumentPieces(cell: OutputCell, t: Texts): string[] {
  if (cell === 'tool arguments whole') return [t.args];
  if (cell === 'tool arguments escaped') return piecesOf(t.escapedArgs, 4);
  return piecesOf(t.args);
}

const ev = (data: unknown, event?: string): WireEvent => ({ ...(event === undefined ? {} : { event }), data: typeof data === 'string' ? data : JSON.stringify(data) });

function chat(cell: OutputCell, t: Texts): CellEvents {
  const chunk = (choices: unknown[]) => ev({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices });
  const delta = (index: number, d: unknown) => chunk([{ index, delta: d, finish_reason: null }]);
  const call = (t: number, fn: Record<string, string>, id?: string) => delta(0, { tool_calls: [{ index: t, ...(id ? { id, type: 'function' } : {}), function: fn }] });
  const start = delta(0, { role: 'assistant', content: '' });
  const end = (reason: string, n = 1) => [...Array.from({ length: n }, (_, i) => chunk([{ index: i, delta: {}, finish_reason: reason }])), ev('[DONE]')];
  switch (cell) {
    case 'text': return [start, ...piecesOf(t.said).map((p) => delta(0, { content: p })), ...end('stop')];
    case 'reasoning': return [start, ...piecesOf(t.said).map((p) => delta(0, { reasoning_content: p })), ...end('stop')];
    case 'tool name': return [start, call(0, { name: t.toolName, arguments: '' }, 'call_0'), call(0, { arguments: '{}' }), ...end('tool_calls')];
    case 'n > 1 interleaved': return [start, ...alternate(piecesOf(t.said).map((p) => delta(0, { content: p })), piecesOf(OTHER).map((p) => delta(1, { content: p }))), ...end('stop', 2)];
    case 'parallel tool calls interleaved': return [start, call(0, { name: 'write', arguments: '' }, 'call_0'), call(1, { name: 'write', arguments: '' }, 'call_1'),
      ...alternate(piecesOf(t.args).map((p) => call(0, { arguments: p })), piecesOf(t.otherArgs).map((p) => call(1, { arguments: p }))), ...end('tool_calls')];
    case 'error message': return [start, delta(0, { content: 'fine so far' }), ev({ error: { message: `the token ${t.secret} was rejected`, type: 'server_error' } })];
    default: return [start, call(0, { name: 'write', arguments: '' }, 'call_0'), ...argumentPieces(cell, t).map((p) => call(0, { arguments: p })), ...end('tool_calls')];
  }
}

function completions(cell: OutputCell, t: Texts): CellEvents {
  const chunk = (index: number, text: string) => ev({ id: 'x1', object: 'text_completion', model: 'm', choices: [{ index, text, finish_reason: null }] });
  switch (cell) {
    case 'text': return [...piecesOf(t.said).map((p) => chunk(0, p)), ev('[DONE]')];
    case 'n > 1 interleaved': return [...alternate(piecesOf(t.said).map((p) => chunk(0, p)), piecesOf(OTHER).map((p) => chunk(1, p))), ev('[DONE]')];
    case 'error message': return [chunk(0, 'fine so far'), ev({ error: { message: `the token ${t.secret} was rejected`, type: 'server_error' } })];
    default: return { inexpressible: 'legacy completions stream text only: no reasoning, no tool calls' };
  }
}

function messages(cell: OutputCell, t: Texts): CellEvents {
  const e = (type: string, data: Record<string, unknown>) => ev({ type, ...data }, type);
  const start = e('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 0 } } });
  const block = (index: number, content_block: unknown) => e('content_block_start', { index, content_block });
  const delta = (index: number, d: unknown) => e('content_block_delta', { index, delta: d });
  const stop = (index: number) => e('content_block_stop', { index });
  const end = (reason: string) => [e('message_delta', { delta: { stop_reason: reason }, usage: { output_tokens: 2 } }), e('message_stop', {})];
  const tool = (index: number, name = 'write') => block(index, { type: 'tool_use', id: `toolu_${index}`, name, input: {} });
  const json = (index: number, partial_json: string) => delta(index, { type: 'input_json_delta', partial_json });
  switch (cell) {
    case 'text': return [start, block(0, { type: 'text', text: '' }), ...piecesOf(t.said).map((p) => delta(0, { type: 'text_delta', text: p })), stop(0), ...end('end_turn')];
    case 'reasoning': return [start, block(0, { type: 'thinking', thinking: '' }), ...piecesOf(t.said).map((p) => delta(0, { type: 'thinking_delta', thinking: p })), stop(0), ...end('end_turn')];
    case 'tool name': return [start, tool(0, t.toolName), json(0, '{}'), stop(0), ...end('tool_use')];
    case 'n > 1 interleaved': return { inexpressible: 'Messages has no n: one answer per stream' };
    case 'parallel tool calls interleaved': return [start, tool(0), tool(1), ...alternate(piecesOf(t.args).map((p) => json(0, p)), piecesOf(t.otherArgs).map((p) => json(1, p))), stop(0), stop(1), ...end('tool_use')];
    case 'error message': return [start, e('error', { error: { type: 'api_error', message: `the token ${t.secret} was rejected` } })];
    default: return [start, tool(0), ...argumentPieces(cell, t).map((p) => json(0, p)), stop(0), ...end('tool_use')];
  }
}

function responses(cell: OutputCell, t: Texts): CellEvents {
  let sequence = 0;
  const e = (type: string, data: Record<string, unknown>) => ev({ type, sequence_number: sequence++, ...data }, type);
  const response = (status: string) => ({ id: 'resp_1', object: 'response', created_at: 0, status, model: 'm', output: [], usage: status === 'completed' ? { input_tokens: 1, output_tokens: 1, total_tokens: 2 } : null });
  const start = () => e('response.created', { response: response('in_progress') });
  const done = () => e('response.completed', { response: response('completed') });
  const call = (o: number, name = 'write') => e('response.output_item.added', { output_index: o, item: { type: 'function_call', id: `fc_${o}`, call_id: `call_${o}`, name, arguments: '' } });
  const args = (o: number, delta: string) => e('response.function_call_arguments.delta', { item_id: `fc_${o}`, output_index: o, delta });
  switch (cell) {
    case 'text': return [start(), e('response.output_item.added', { output_index: 0, item: { type: 'message', id: 'msg_1', role: 'assistant', content: [] } }),
      e('response.content_part.added', { item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } }),
      ...piecesOf(t.said).map((delta) => e('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta })), done()];
    case 'reasoning': return [start(), e('response.output_item.added', { output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } }),
      ...piecesOf(t.said).map((delta) => e('response.reasoning_summary_text.delta', { item_id: 'rs_1', output_index: 0, summary_index: 0, delta })), done()];
    case 'tool name': return [start(), call(0, t.toolName), args(0, '{}'), done()];
    case 'n > 1 interleaved': return { inexpressible: 'Responses has no n: one answer per stream' };
    case 'parallel tool calls interleaved': return [start(), call(0), call(1), ...alternate(piecesOf(t.args).map((p) => args(0, p)), piecesOf(t.otherArgs).map((p) => args(1, p))), done()];
    case 'error message': return [start(), e('error', { code: 'server_error', message: `the token ${t.secret} was rejected` })];
    default: return [start(), call(0), ...argumentPieces(cell, t).map((p) => args(0, p)), done()];
  }
}

function genai(cell: OutputCell, t: Texts): CellEvents {
  const chunk = (candidates: unknown[]) => ev({ candidates, modelVersion: 'm' });
  const parts = (index: number, p: unknown[], finishReason?: string) => chunk([{ index, content: { role: 'model', parts: p }, ...(finishReason ? { finishReason } : {}) }]);
  const end = [ev({ candidates: [{ index: 0, content: { role: 'model', parts: [] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } })];
  const call = (name: string, args: unknown) => parts(0, [{ functionCall: { name, args } }]);
  switch (cell) {
    case 'text': return [...piecesOf(t.said).map((text) => parts(0, [{ text }])), ...end];
    case 'reasoning': return [...piecesOf(t.said).map((text) => parts(0, [{ text, thought: true }])), ...end];
    case 'tool name': return [call(t.toolName, {}), ...end];
    case 'tool arguments whole': return [call('write', JSON.parse(t.args)), ...end];
    // The secret is a key of args, and its first letter a JSON escape on the wire.
    case 'tool arguments escaped': return [{ data: JSON.stringify({ candidates: [{ index: 0, content: { role: 'model', parts: [{ functionCall: { name: 'write', args: { [t.said]: true } } }] } }] }).replace(t.secret, `\\u0067${t.secret.slice(1)}`) }, ...end];
    case 'tool arguments split':
    case 'parallel tool calls interleaved': return { inexpressible: 'a GenAI functionCall arrives whole (args an object), never in fragments' };
    case 'n > 1 interleaved': return [...alternate(piecesOf(t.said).map((text) => parts(0, [{ text }])), piecesOf(OTHER).map((text) => parts(1, [{ text }]))), ...end];
    case 'error message': return [parts(0, [{ text: 'fine so far' }]), ev({ error: { code: 500, message: `the token ${t.secret} was rejected`, status: 'INTERNAL' } })];
  }
}

function bedrock(cell: OutputCell, t: Texts): CellEvents {
  const e = (name: string, data: unknown) => ev(data, name);
  const start = e('messageStart', { role: 'assistant' });
  const delta = (contentBlockIndex: number, d: unknown) => e('contentBlockDelta', { contentBlockIndex, delta: d });
  const tool = (index: number, name = 'write') => e('contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId: `tu_${index}`, name } } });
  const input = (index: number, text: string) => delta(index, { toolUse: { input: text } });
  const stop = (index: number) => e('contentBlockStop', { contentBlockIndex: index });
  const end = (stopReason: string) => [e('messageStop', { stopReason }), e('metadata', { usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, metrics: { latencyMs: 1 } })];
  switch (cell) {
    case 'text': return [start, ...piecesOf(t.said).map((text) => delta(0, { text })), stop(0), ...end('end_turn')];
    case 'reasoning': return [start, ...piecesOf(t.said).map((text) => delta(0, { reasoningContent: { text } })), stop(0), ...end('end_turn')];
    case 'tool name': return [start, tool(0, t.toolName), input(0, '{}'), stop(0), ...end('tool_use')];
    case 'n > 1 interleaved': return { inexpressible: 'ConverseStream has no n: one answer per stream' };
    case 'parallel tool calls interleaved': return [start, tool(0), tool(1), ...alternate(piecesOf(t.args).map((p) => input(0, p)), piecesOf(t.otherArgs).map((p) => input(1, p))), stop(0), stop(1), ...end('tool_use')];
    case 'error message': return [start, delta(0, { text: 'fine so far' }), e('modelStreamErrorException', { message: `the token ${t.secret} was rejected` })];
    default: return [start, tool(0), ...argumentPieces(cell, t).map((p) => input(0, p)), stop(0), ...end('tool_use')];
  }
}

const BUILDERS: Record<CodecName, (cell: OutputCell, t: Texts) => CellEvents> = {
  'openai-chat': chat,
  'openai-completions': completions,
  'openai-responses': responses,
  'anthropic-messages': messages,
  'google-genai': genai,
  'bedrock-converse': bedrock,
};

/** Every dialect of the codec registry: a dialect added there without its cells fails the matrix. */
export const CELL_EVENTS = BUILDERS;

/** The events of `cell` in `dialect`, around `secret` (a clean word for the control rows). */
export function cellEvents(dialect: CodecName, cell: OutputCell, secret = SECRET): CellEvents {
  return BUILDERS[dialect](cell, textsOf(secret));
}

/** A clean answer of the text cell's shape, for the control rows. */
export function cleanEvents(dialect: CodecName): WireEvent[] {
  const events = cellEvents(dialect, 'text', 'nothing-secret-here');
  if (!Array.isArray(events)) throw new Error(`${dialect} has no text cell`);
  return events;
}
