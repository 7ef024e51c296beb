// Post-call guardrails on the answer (docs/guardrails.md), after output DLP, in the client's own
// dialect, on every path relayReply takes. A JSON answer is judged whole; a block replaces it with
// gw's error, a rewrite puts the new texts where they were read. A stream is held whole (nothing
// reaches the client before the verdict, as output DLP's hold keeps a secret back), its texts read
// as canonical parts by the client dialect's codec; on allow it is released byte for byte, on a
// block it ends at once with the dialect's error event, and a rewrite patches the held events: the
// first delta of each text carries the whole new text, the later ones none, and an event that
// repeats the finished text (Responses' *.done events) carries the new one.
import type { DialectCodec, OutputPart, WireEvent } from '../../canonical/codec.js';
import type { RouteDialect } from '../../canonical/dialect.js';
import { copyWith } from '../../copy-with.js';
import { codecForCall } from '../../formats/codec-registry.js';
import { GatewayError } from '../../errors.js';
import { applyRewrite, collectTexts } from '../../guardrails/collect-texts.js';
import type { GuardText } from '../../guardrails/guardrail-verdict.js';
import { readBedrockFrames } from '../../providers/bedrock/event-stream.js';
import type { StoredGuardrail } from '../../state/guardrails.js';
import { SseDecoder } from '../../streaming/sse-decoder.js';
import { guardrailsFor, guardTexts, type GuardContext } from '../govern/guard-texts.js';
import type { PipelineResponse } from '../pipeline-types.js';

export async function guardReply(response: PipelineResponse, dialect: RouteDialect, context: GuardContext): Promise<PipelineResponse> {
  if (response.status >= 400) return response;
  const guardrails = guardrailsFor(context, 'post');
  if (guardrails.length === 0) return response;
  const codec = codecForCall(dialect, context.operation);
  if (Buffer.isBuffer(response.body)) return copyWith(response, { body: await guardJson(response.body, guardrails, context) });
  if (isAsyncIterable(response.body)) return copyWith(response, { body: context.trace.trackStream(holdStream(response.body, guardrails, codec, context)) });
  return response;
}

async function guardJson(bytes: Buffer, guardrails: readonly StoredGuardrail[], context: GuardContext): Promise<Buffer> {
  let answer: unknown;
  try { answer = JSON.parse(bytes.toString('utf8')); } catch { answer = bytes.toString('utf8'); }
  const collected = collectTexts(answer);
  const rewritten = await guardTexts(context, guardrails, 'post', collected.texts);
  if (rewritten === null) return bytes;
  const changed = applyRewrite(answer, collected, rewritten);
  return Buffer.from(typeof changed === 'string' && typeof answer === 'string' ? changed : JSON.stringify(changed));
}

/** One held SSE event, and the text deltas it carried, by the text they belong to. */
interface HeldEvent { raw: string; deltas: Array<{ key: string; delta: string }> }

async function* holdStream(body: AsyncIterable<Uint8Array | string>, guardrails: readonly StoredGuardrail[], codec: DialectCodec, context: GuardContext): AsyncGenerator<Uint8Array | string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  const whole = Buffer.concat(chunks);
  try {
    if (codec.streamFraming === 'aws-event-stream') {
      yield* await guardFrames(whole, guardrails, codec, context);
      return;
    }
    const text = whole.toString('utf8');
    if (/^\s*[[{]/.test(text)) {
      // GenAI without alt=sse: one JSON array, judged as a JSON answer is.
      yield await guardJson(whole, guardrails, context);
      return;
    }
    yield await guardEvents(text, guardrails, codec, context);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    // After the status line: the refusal is the stream's error event, and the call's outcome.
    context.trace.noteOutcome(error.code);
    yield codec.encodeStreamError(error);
  }
}

async function guardEvents(text: string, guardrails: readonly StoredGuardrail[], codec: DialectCodec, context: GuardContext): Promise<string> {
  const reader = codec.createOutputPartReader();
  const decoder = new SseDecoder();
  const held: HeldEvent[] = [];
  for (const raw of splitEvents(text)) held.push({ raw, deltas: deltasOf(readParts(reader, decoder.push(Buffer.from(raw)))) });
  const last = held.at(-1);
  if (last) last.deltas.push(...deltasOf([...readParts(reader, decoder.end()), ...reader.end()]));
  const texts = joinDeltas(held.flatMap((event) => event.deltas));
  const rewritten = await guardTexts(context, guardrails, 'post', texts);
  if (rewritten === null) return text;
  return rewriteEvents(held, texts, rewritten);
}

async function guardFrames(whole: Buffer, guardrails: readonly StoredGuardrail[], codec: DialectCodec, context: GuardContext): Promise<Uint8Array[]> {
  const reader = codec.createOutputPartReader();
  const frames: Uint8Array[] = [];
  const deltas: Array<{ key: string; delta: string }> = [];
  for await (const { frame, event } of readBedrockFrames(oneChunk(whole))) {
    frames.push(frame);
    deltas.push(...deltasOf(reader.push(event)));
  }
  deltas.push(...deltasOf(reader.end()));
  const rewritten = await guardTexts(context, guardrails, 'post', joinDeltas(deltas));
  // AWS frames carry a checksum over their bytes: a rewrite is not patched into them, the answer is refused instead.
  if (rewritten !== null) throw new GatewayError('GW_ERR_GUARDRAIL_BLOCKED', { message: 'A guardrail rewrote this answer, which a Bedrock event stream cannot carry; it is withheld.' });
  return frames;
}

async function* oneChunk(bytes: Buffer): AsyncGenerator<Uint8Array> {
  yield bytes;
}

function splitEvents(text: string): string[] {
  const events: string[] = [];
  let rest = text;
  for (let match = /\r\n\r\n|\n\n|\r\r/.exec(rest); match !== null; match = /\r\n\r\n|\n\n|\r\r/.exec(rest)) {
    const end = match.index + match[0].length;
    events.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  if (rest !== '') events.push(rest);
  return events;
}

function readParts(reader: { push(event: WireEvent): OutputPart[] }, events: Iterable<WireEvent>): OutputPart[] {
  const parts: OutputPart[] = [];
  for (const event of events) parts.push(...reader.push(event));
  return parts;
}

/** The answer's words: text deltas, by choice and part (reasoning and tool arguments are not rewritten, and not sent). */
function deltasOf(parts: readonly OutputPart[]): Array<{ key: string; delta: string }> {
  const deltas: Array<{ key: string; delta: string }> = [];
  for (const { choice, part } of parts) if (part.type === 'text-delta' && part.delta !== '') deltas.push({ key: `output/${choice}/${part.index}`, delta: part.delta });
  return deltas;
}

function joinDeltas(deltas: ReadonlyArray<{ key: string; delta: string }>): GuardText[] {
  const joined = new Map<string, string>();
  for (const { key, delta } of deltas) joined.set(key, (joined.get(key) ?? '') + delta);
  return [...joined].map(([place, text]) => ({ place, text }));
}

function rewriteEvents(held: readonly HeldEvent[], texts: readonly GuardText[], rewritten: ReadonlyArray<string | null>): string {
  const replacements = new Map<string, { original: string; text: string }>();
  texts.forEach((text, index) => {
    const next = rewritten[index];
    if (next !== null && next !== undefined) replacements.set(text.place, { original: text.text, text: next });
  });
  const started = new Set<string>();
  let out = '';
  for (const event of held) {
    let raw = event.raw;
    for (const { key, delta } of event.deltas) {
      const replacement = replacements.get(key);
      if (!replacement) continue;
      const first = !started.has(key);
      started.add(key);
      raw = replaceOnce(raw, JSON.stringify(delta), JSON.stringify(first ? replacement.text : ''));
    }
    for (const { original, text } of replacements.values()) if (original.length > 0) raw = raw.split(JSON.stringify(original)).join(JSON.stringify(text));
    out += raw;
  }
  return out;
}

function replaceOnce(raw: string, from: string, to: string): string {
  const at = raw.indexOf(from);
  if (at < 0) throw new GatewayError('GW_ERR_GUARDRAIL_BLOCKED', { message: 'A guardrail rewrote this answer and gw could not place the new text in the stream; it is withheld.' });
  return raw.slice(0, at) + to + raw.slice(at + from.length);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array | string> {
  return typeof value === 'object' && value !== null && !Buffer.isBuffer(value) && Symbol.asyncIterator in value;
}
