// A call's worst-case cost before it is sent, for hard budgets: what the provider can bill for it,
// including what the client may never see (docs/budgets-cut-calls.md). Input: the body's bytes at
// four a token (the tokens-per-minute limiter's rule), plus media sent by URL or file id at a
// per-item allowance (count-linked-media.ts), at the highest input price. Output: the ceiling the
// request asks for (max_tokens and its dialect spellings, raised to a reasoning budget that is
// larger, a GenAI thinking budget added since it is billed outside the cap), else the model's own
// ceiling (its context window, when the price book knows it), else DEFAULT_OUTPUT_TOKENS; times
// the choices asked for (`n`, `candidateCount`); at the highest output price. The error of this
// estimate bounds how far concurrent calls can overshoot a hard budget (README: Budgets). A media
// call adds its units at their per-unit prices (images asked for, characters to speak).
import { isPlainObject } from '../is-plain-object.js';
import { countLinkedMedia } from './count-linked-media.js';
import { NANOS_PER_USD, type Rates } from './price-book.js';

/**
 * The output assumed for a request that sets no cap, on a model whose ceiling the price book does
 * not know: at or above the largest default output of current models (OpenAI's reasoning models
 * bill up to their 100,000-token ceiling only when asked; GPT-4o stops at 16,384, Gemini 2.5 at 65,536).
 */
export const DEFAULT_OUTPUT_TOKENS = 65_536;

/**
 * An image the provider fetches by URL or file id: above what any current model bills for one
 * (OpenAI's high detail ~1,100, its patch models up to ~2,500, Anthropic ~1,600, Gemini 258).
 */
export const LINKED_IMAGE_TOKENS = 4_096;

/** A document, audio or video file fetched by reference: a PDF of about twenty pages at Anthropic's ~1,500 tokens a page. */
export const LINKED_FILE_TOKENS = 32_768;

/** A media call's units, known before it is sent: the images it asks for, the characters it asks to be spoken. */
export interface ExpectedUnits {
  images?: number;
  characters?: number;
}

export function estimateWorstCase(rates: Rates, bodyBytes: number, body: unknown, units: ExpectedUnits = {}): number {
  const linked = countLinkedMedia(body);
  const input = Math.ceil(bodyBytes / 4) + linked.images * LINKED_IMAGE_TOKENS + linked.files * LINKED_FILE_TOKENS;
  const output = worstCaseOutputTokens(body, rates.outputCeiling);
  // Units at their dearest price (an image's largest size and best quality); a model priced by tokens has none.
  const perUnit = (units.images ?? 0) * (rates.perImage ?? 0) + (units.characters ?? 0) * (rates.perCharacter ?? 0);
  return Math.ceil((input * rates.input + output * rates.output + perUnit) * NANOS_PER_USD);
}

/** The output tokens a request can be billed for: every choice at its ceiling, hidden reasoning included. */
export function worstCaseOutputTokens(body: unknown, modelCeiling?: number): number {
  const record = isPlainObject(body) ? body : {};
  const cap = readOutputCap(record);
  const reasoning = readReasoningBudget(record);
  const ceiling = cap ?? modelCeiling ?? DEFAULT_OUTPUT_TOKENS;
  // GenAI bills thoughts outside candidatesTokenCount; elsewhere the cap includes reasoning (which must fit under it).
  const perChoice = reasoning.outside ? ceiling + reasoning.tokens : Math.max(ceiling, reasoning.tokens);
  return perChoice * readChoices(record);
}

/** max_tokens (Chat, Messages), max_completion_tokens, max_output_tokens (Responses), maxOutputTokens (GenAI), inferenceConfig.maxTokens (Converse). */
function readOutputCap(record: Record<string, unknown>): number | null {
  const values = [record.max_completion_tokens, record.max_tokens, record.max_output_tokens, field(record, 'generationConfig', 'maxOutputTokens'), field(record, 'inferenceConfig', 'maxTokens')];
  let largest: number | null = null;
  for (const value of values) if (isCount(value)) largest = Math.max(largest ?? 0, value);
  return largest;
}

/**
 * A reasoning budget the request names: Anthropic's `thinking.budget_tokens` (also inside Bedrock's
 * additionalModelRequestFields), GenAI's `generationConfig.thinkingConfig.thinkingBudget`. OpenAI's
 * `reasoning` / `reasoning_effort` names no number: its reasoning is inside the cap or the ceiling.
 */
function readReasoningBudget(record: Record<string, unknown>): { tokens: number; outside: boolean } {
  const genai = field(record, 'generationConfig', 'thinkingConfig');
  if (isPlainObject(genai) && isCount(genai.thinkingBudget)) return { tokens: genai.thinkingBudget, outside: true };
  const thinking = isPlainObject(record.thinking) ? record.thinking : field(record, 'additionalModelRequestFields', 'thinking');
  if (isPlainObject(thinking) && isCount(thinking.budget_tokens)) return { tokens: thinking.budget_tokens, outside: false };
  return { tokens: 0, outside: false };
}

/** Chat's `n`, GenAI's `candidateCount`: each choice is billed its own output. */
function readChoices(record: Record<string, unknown>): number {
  const count = record.n ?? field(record, 'generationConfig', 'candidateCount');
  return isCount(count) ? count : 1;
}

function field(record: Record<string, unknown>, name: string, key: string): unknown {
  const value = record[name];
  return isPlainObject(value) ? value[key] : undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
