// A Responses API create body → canonical.
// https://platform.openai.com/docs/api-reference/responses/create
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest, ReasoningConfig, ResponseFormat } from '../../canonical/request.js';
import { decodeInput } from './decode-input.js';
import { decodeToolChoice, decodeTools } from './decode-tools.js';
import {
  invalid, optionalBoolean, optionalInteger, optionalNumber, optionalRecord, optionalString, requireRecord, type JsonRecord,
} from '../shared/json-guards.js';

/** Fields only OpenAI understands: kept under extensions.openai (a Responses or Chat target may use them). */
export const OPENAI_ONLY = ['store', 'include', 'previous_response_id', 'prompt_cache_key', 'prompt_cache_retention',
  'metadata', 'client_metadata', 'service_tier', 'truncation', 'safety_identifier', 'background',
  'max_tool_calls', 'top_logprobs', 'conversation', 'prompt', 'stream_options'];
const MAPPED = new Set(['model', 'input', 'instructions', 'tools', 'tool_choice', 'max_output_tokens', 'temperature', 'top_p',
  'text', 'reasoning', 'stream', 'user', 'parallel_tool_calls']);

export function decodeResponsesRequest(body: unknown, options: { model: string; stream: boolean }): Decoded<CanonicalRequest> {
  const record = requireRecord(body, 'body');
  const warnings: TranslationWarning[] = [];
  const openai: JsonRecord = {};
  const { system, messages } = decodeInput(record.input, warnings);
  const instructions = optionalString(record.instructions, 'instructions');
  const request: CanonicalRequest = {
    model: options.model,
    system: instructions === undefined ? system : [{ type: 'text', text: instructions }, ...system],
    messages,
    stream: options.stream,
    extensions: {},
  };
  const tools = decodeTools(record.tools, openai, warnings);
  if (tools.length > 0) request.tools = tools;
  const toolChoice = decodeToolChoice(record.tool_choice, openai, warnings);
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  decodeSampling(record, request);
  const responseFormat = decodeTextFormat(record.text, openai, warnings);
  if (responseFormat !== undefined) request.responseFormat = responseFormat;
  const reasoning = decodeReasoning(record.reasoning, openai);
  if (reasoning !== undefined) request.reasoning = reasoning;
  for (const key of OPENAI_ONLY) if (record[key] !== undefined && record[key] !== null) openai[key] = record[key];
  for (const key of Object.keys(record)) if (!MAPPED.has(key) && !OPENAI_ONLY.includes(key)) warnings.push({ code: `dropped:${key}` });
  if (Object.keys(openai).length > 0) request.extensions.openai = openai;
  return { value: request, warnings };
}

function decodeSampling(record: JsonRecord, request: CanonicalRequest): void {
  const maxOutputTokens = optionalInteger(record.max_output_tokens, 'max_output_tokens');
  if (maxOutputTokens !== undefined) request.maxOutputTokens = maxOutputTokens;
  const temperature = optionalNumber(record.temperature, 'temperature');
  if (temperature !== undefined) request.temperature = temperature;
  const topP = optionalNumber(record.top_p, 'top_p');
  if (topP !== undefined) request.topP = topP;
  const parallel = optionalBoolean(record.parallel_tool_calls, 'parallel_tool_calls');
  if (parallel !== undefined) request.parallelToolCalls = parallel;
  const user = optionalString(record.user, 'user');
  if (user !== undefined) request.user = user;
}

/** text.format: text | json_object | json_schema {name, schema, strict}; text.verbosity rides along. */
function decodeTextFormat(value: unknown, openai: JsonRecord, warnings: TranslationWarning[]): ResponseFormat | undefined {
  const text = optionalRecord(value, 'text');
  if (text === undefined) return undefined;
  if (text.verbosity !== undefined && text.verbosity !== null) openai.verbosity = text.verbosity;
  const format = optionalRecord(text.format, 'text.format');
  if (format === undefined) return undefined;
  if (format.type === 'text') return { type: 'text' };
  if (format.type === 'json_object') return { type: 'json' };
  if (format.type !== 'json_schema') throw invalid('text.format.type', "'text', 'json_object' or 'json_schema'");
  const name = optionalString(format.name, 'text.format.name') ?? 'response';
  const schema = optionalRecord(format.schema, 'text.format.schema');
  if (schema === undefined) throw invalid('text.format.schema', 'an object');
  if (format.description !== undefined) warnings.push({ code: 'dropped:text.format.description' });
  const strict = format.strict === true || format.strict === false ? { strict: format.strict } : {};
  return { type: 'json-schema', name, schema, ...strict };
}

const EFFORTS: Record<string, ReasoningConfig['effort']> = { minimal: 'minimal', low: 'low', medium: 'medium', high: 'high', xhigh: 'max' };

/** reasoning {effort, summary}: a summary means the client wants the thinking shown. */
function decodeReasoning(value: unknown, openai: JsonRecord): ReasoningConfig | undefined {
  const reasoning = optionalRecord(value, 'reasoning');
  if (reasoning === undefined) return undefined;
  const config: ReasoningConfig = {};
  const effort = optionalString(reasoning.effort, 'reasoning.effort');
  if (effort !== undefined && EFFORTS[effort] !== undefined) config.effort = EFFORTS[effort];
  else if (effort !== undefined) openai.reasoning_effort = effort; // 'none' has no canonical form
  const summary = optionalString(reasoning.summary ?? reasoning.generate_summary, 'reasoning.summary');
  if (summary !== undefined) config.include = true;
  if (summary !== undefined && summary !== 'auto') openai.reasoning_summary = summary;
  return Object.keys(config).length > 0 ? config : undefined;
}
