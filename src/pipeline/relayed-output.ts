// What a stream handed its client, kept while budgets apply so a call cut before the
// provider's usage came is charged for it (src/pipeline/settle-cut-call.ts). Same-format
// streams keep each event's data as it passed (no parse on the way: the strings exist
// already) and decode them with the provider's codec only if the usage never came;
// translated streams keep the canonical text they relayed. Bounded: past RETAINED_CHARS
// only the bytes are counted, each as a token (no token is shorter than a byte).
import type { DialectCodec } from '../canonical/codec.js';
import type { StreamPart } from '../canonical/response.js';
import { estimateOutputTokens, type CountTokens } from '../spend/estimate-cut-usage.js';

const RETAINED_CHARS = 1024 * 1024;

export class RelayedOutput {
  private readonly events: string[] = [];
  private readonly texts: string[] = [];
  private retained = 0;
  private overflowBytes = 0;

  /** `codec` reads the events of a same-format stream; a translated stream's parts need none. */
  constructor(private readonly codec: Pick<DialectCodec, 'createStreamDecoder'> | null) {}

  /** One same-format event's data, as the client got it. */
  addEvent(data: string): void {
    if (this.keep(data)) this.events.push(data);
  }

  /** One canonical part a translated stream relayed: only generated text counts. */
  addPart(part: StreamPart): void {
    const text = generatedText(part);
    if (text !== null && this.keep(text)) this.texts.push(text);
  }

  /** The output tokens relayed, by the tokenizer given. */
  tokens(count: CountTokens): number {
    return estimateOutputTokens([...this.texts, ...this.decodedTexts()], count, this.overflowBytes);
  }

  private keep(text: string): boolean {
    if (this.retained + text.length <= RETAINED_CHARS) {
      this.retained += text.length;
      return true;
    }
    this.overflowBytes += Buffer.byteLength(text, 'utf8');
    return false;
  }

  private decodedTexts(): string[] {
    if (this.codec === null || this.events.length === 0) return [];
    const decoder = this.codec.createStreamDecoder();
    const texts: string[] = [];
    const take = (parts: StreamPart[]) => {
      for (const part of parts) {
        const text = generatedText(part);
        if (text !== null) texts.push(text);
      }
    };
    // A cut stream may end inside a block, or on an event the decoder refuses: what was read stands.
    try {
      for (const data of this.events) take(decoder.push({ data }));
    } catch { /* keep the text decoded so far */ }
    return texts;
  }
}

/** The text a part carries that the model wrote (and the provider bills as output), or null. */
function generatedText(part: StreamPart): string | null {
  if (part.type === 'text-delta' || part.type === 'reasoning-delta') return part.delta;
  if (part.type === 'tool-call-delta') return part.argumentsDelta;
  if (part.type === 'tool-call-start') return part.name;
  return null;
}
