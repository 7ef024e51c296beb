// What a stream handed its client, kept while budgets apply so a call cut before the
// provider's usage came is charged for it (src/pipeline/record/settle-cut-call.ts). Same-format
// event streams keep each event's data as it passed (no parse on the way: the strings exist
// already); streams relayed as bytes (Bedrock's event-stream frames, Gemini's JSON array) keep
// their chunks; both are decoded with the provider's codec only if the usage never came.
// Translated streams keep the canonical text they relayed. Bounded: past RETAINED_BYTES only
// the bytes are counted, each as a token (no token is shorter than a byte).
import type { DialectCodec, WireEvent } from '../canonical/codec.js';
import type { StreamPart } from '../canonical/response.js';
import type { Usage } from '../canonical/usage.js';
import { decodeBedrockEventStream } from '../providers/bedrock/event-stream.js';
import { estimateOutputTokens, type CountTokens } from '../spend/estimate-cut-usage.js';

const RETAINED_BYTES = 1024 * 1024;

/** What the relayed output comes to: its tokens, and the usage its events carried (a byte stream's, read nowhere else). */
export interface RelayedCount {
  tokens: number;
  usage: Usage | undefined;
}

type StreamCodec = Pick<DialectCodec, 'createStreamDecoder' | 'streamFraming'>;

export class RelayedOutput {
  private readonly events: string[] = [];
  private readonly chunks: Uint8Array[] = [];
  private readonly texts: string[] = [];
  private retained = 0;
  private overflowBytes = 0;

  /** `codec` reads the events of a same-format stream; a translated stream's parts need none. */
  constructor(private readonly codec: StreamCodec | null) {}

  /** One same-format event's data, as the client got it. */
  addEvent(data: string): void {
    if (this.keep(data.length, () => Buffer.byteLength(data, 'utf8'))) this.events.push(data);
  }

  /** One chunk of a stream relayed as bytes. */
  addChunk(chunk: Uint8Array): void {
    if (this.keep(chunk.length, () => chunk.length)) this.chunks.push(chunk);
  }

  /** One canonical part a translated stream relayed: only generated text counts. */
  addPart(part: StreamPart): void {
    const text = generatedText(part);
    if (text !== null && this.keep(text.length, () => Buffer.byteLength(text, 'utf8'))) this.texts.push(text);
  }

  /** The output tokens relayed, by the tokenizer given. */
  async count(count: CountTokens): Promise<RelayedCount> {
    const decoded = await this.decode();
    return { tokens: estimateOutputTokens([...this.texts, ...decoded.texts], count, this.overflowBytes), usage: decoded.usage };
  }

  private keep(size: number, bytes: () => number): boolean {
    if (this.retained + size <= RETAINED_BYTES) {
      this.retained += size;
      return true;
    }
    this.overflowBytes += bytes();
    return false;
  }

  private async decode(): Promise<{ texts: string[]; usage: Usage | undefined }> {
    const texts: string[] = [];
    let usage: Usage | undefined;
    if (this.codec === null || (this.events.length === 0 && this.chunks.length === 0)) return { texts, usage };
    const decoder = this.codec.createStreamDecoder();
    const take = (parts: StreamPart[]) => {
      for (const part of parts) {
        const text = generatedText(part);
        if (text !== null) texts.push(text);
        if (part.type === 'usage' || part.type === 'finish') usage = part.usage;
      }
    };
    // A cut stream may end inside a frame, or on an event the decoder refuses: what was read stands.
    for await (const event of this.wireEvents()) {
      try { take(decoder.push(event)); } catch { /* the next event may still read */ }
    }
    try { take(decoder.end()); } catch { /* nothing more to read */ }
    return { texts, usage };
  }

  private async *wireEvents(): AsyncGenerator<WireEvent> {
    for (const data of this.events) yield { data };
    if (this.chunks.length === 0 || this.codec === null) return;
    if (this.codec.streamFraming === 'aws-event-stream') {
      const chunks = this.chunks;
      try {
        yield* decodeBedrockEventStream((async function* () { yield* chunks; })());
      } catch { /* cut inside a frame */ }
      return;
    }
    for (const data of jsonArrayElements(Buffer.concat(this.chunks).toString('utf8'))) yield { data };
  }
}

/** The text a part carries that the model wrote (and the provider bills as output), or null. */
function generatedText(part: StreamPart): string | null {
  if (part.type === 'text-delta' || part.type === 'reasoning-delta') return part.delta;
  if (part.type === 'tool-call-delta') return part.argumentsDelta;
  if (part.type === 'tool-call-start') return part.name;
  return null;
}

/** The complete top-level objects of a JSON array as it arrived (Gemini's stream without alt=sse), however it was cut. */
export function jsonArrayElements(text: string): string[] {
  const elements: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') {
      if (depth === 0) start = index;
      depth += 1;
    } else if (char === '}' && depth > 0) {
      depth -= 1;
      if (depth === 0) elements.push(text.slice(start, index + 1));
    }
  }
  return elements;
}
