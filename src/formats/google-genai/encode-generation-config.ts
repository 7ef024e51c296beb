// Canonical sampling, output-format and reasoning settings → `generationConfig`.
// https://ai.google.dev/api/generate-content#generationconfig ; thinking: https://ai.google.dev/gemini-api/docs/thinking
import type { TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest, ReasoningConfig } from '../../canonical/request.js';
import { cleanJsonSchemaForGemini } from './clean-json-schema.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';

/** Gemini 2.x takes a token budget, not a level; these mirror the levels' documented defaults. */
const BUDGETS: Record<NonNullable<ReasoningConfig['effort']>, number> = { minimal: 0, low: 1024, medium: 8192, high: 24576, max: 32768 };

export function encodeGenerationConfig(request: CanonicalRequest, google: JsonRecord, warnings: TranslationWarning[]): JsonRecord {
  const config: JsonRecord = isPlainObject(google.generationConfig) ? { ...google.generationConfig } : {};
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.topK !== undefined) config.topK = request.topK;
  if (request.stopSequences !== undefined) config.stopSequences = request.stopSequences;
  encodeResponseFormat(request, config, warnings);
  const thinking = encodeThinkingConfig(request, google, warnings);
  if (Object.keys(thinking).length > 0) config.thinkingConfig = thinking;
  return config;
}

function encodeResponseFormat(request: CanonicalRequest, config: JsonRecord, warnings: TranslationWarning[]): void {
  const format = request.responseFormat;
  if (format === undefined) return;
  if (format.type === 'text') {
    config.responseMimeType = 'text/plain';
    return;
  }
  config.responseMimeType = 'application/json';
  if (format.type !== 'json-schema') return;
  // Gemini has neither a schema name nor a strict flag; the schema is always enforced.
  if (format.name !== 'response') warnings.push({ code: 'dropped:response_format.name' });
  if (format.strict !== undefined) warnings.push({ code: 'dropped:response_format.strict' });
  config.responseSchema = cleanJsonSchemaForGemini(format.schema, warnings);
}

function encodeThinkingConfig(request: CanonicalRequest, google: JsonRecord, warnings: TranslationWarning[]): JsonRecord {
  const thinking: JsonRecord = {};
  const reasoning = request.reasoning;
  if (typeof google.thinkingBudget === 'number') thinking.thinkingBudget = google.thinkingBudget;
  if (reasoning === undefined) return thinking;
  if (reasoning.include !== undefined) thinking.includeThoughts = reasoning.include;
  if (reasoning.budgetTokens !== undefined) thinking.thinkingBudget = reasoning.budgetTokens;
  const effort = reasoning.effort;
  if (effort === undefined) return thinking;
  if (reasoning.budgetTokens !== undefined) {
    // Gemini refuses a level and a budget together; the explicit budget is the more precise.
    warnings.push({ code: 'dropped:reasoning.effort' });
  } else if (/gemini-(1|2)\./.test(request.model)) {
    warnings.push({ code: 'mapped:reasoning.effort', detail: `thinkingBudget ${BUDGETS[effort]}` });
    thinking.thinkingBudget = BUDGETS[effort];
  } else {
    if (effort === 'max') warnings.push({ code: 'mapped:reasoning.effort', detail: 'max → HIGH' });
    thinking.thinkingLevel = effort === 'max' ? 'HIGH' : effort.toUpperCase();
  }
  return thinking;
}
