// A call's worst-case cost before it is sent, for hard budgets: the body's input estimated at
// four bytes a token (the tokens-per-minute limiter's rule) at the highest input price, plus the
// output cap the request names (max_tokens and its dialect spellings) at the highest output
// price, or DEFAULT_OUTPUT_TOKENS when it names none. The error of this estimate is the bound on
// how far concurrent calls can overshoot a hard budget (README: Budgets). A media call adds its
// units at their per-unit prices (images asked for, characters to speak).
import { NANOS_PER_USD, type Rates } from './price-book.js';

/** The output assumed for a request that sets no cap. */
export const DEFAULT_OUTPUT_TOKENS = 4096;

/** A media call's units, known before it is sent: the images it asks for, the characters it asks to be spoken. */
export interface ExpectedUnits {
  images?: number;
  characters?: number;
}

export function estimateWorstCase(rates: Rates, bodyBytes: number, body: unknown, units: ExpectedUnits = {}): number {
  const input = Math.ceil(bodyBytes / 4);
  const output = readOutputCap(body) ?? DEFAULT_OUTPUT_TOKENS;
  // Units at their dearest price (an image's largest size and best quality); a model priced by tokens has none.
  const perUnit = (units.images ?? 0) * (rates.perImage ?? 0) + (units.characters ?? 0) * (rates.perCharacter ?? 0);
  return Math.ceil((input * rates.input + output * rates.output + perUnit) * NANOS_PER_USD);
}

/** max_tokens (Chat, Messages), max_completion_tokens, max_output_tokens (Responses), maxOutputTokens (GenAI), inferenceConfig.maxTokens (Converse). */
function readOutputCap(body: unknown): number | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  const nested = (name: string, field: string): unknown => {
    const value = record[name];
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[field] : undefined;
  };
  for (const value of [record.max_completion_tokens, record.max_tokens, record.max_output_tokens, nested('generationConfig', 'maxOutputTokens'), nested('inferenceConfig', 'maxTokens')]) {
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  return null;
}
