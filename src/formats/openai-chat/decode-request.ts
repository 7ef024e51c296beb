// A client's Chat Completions body → the canonical request.
// https://platform.openai.com/docs/api-reference/chat/create
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest, ReasoningConfig, ResponseFormat } from '../../canonical/request.js';
import type { ToolChoice, ToolDefinition } from '../../canonical/tools.js';
import { decodeOpenAiMessages } from './decode-messages.js';
import {
  invalid, isPlainObject, missing, optionalInteger, optionalNumber, optionalString, requireArray, requireRecord, type JsonRecord,
} from '../shared/json-guards.js';

/** Chat-only fields other dialects lack: kept in extensions.openai, read back by encodeRequest. */
const OPENAI_EXTENSION_FIELDS = [
  'logprobs', 'top_logprobs', 'n', 'seed', 'frequency_penalty', 'presence_penalty', 'logit_bias', 'service_tier',
  'store', 'metadata', 'prediction', 'audio', 'modalities', 'web_search_options', 'prompt_cache_key',
  'prompt_cache_retention', 'safety_identifier', 'verbosity', 'stream_options',
] as const;

const HANDLED_FIELDS = new Set<string>([
  'model', 'messages', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_tokens', 'max_completion_tokens',
  'temperature', 'top_p', 'stop', 'response_format', 'reasoning_effort', 'stream', 'user', ...OPENAI_EXTENSION_FIELDS,
]);

const EFFORTS = new Set(['minimal', 'low', 'medium', 'high', 'max']);

export function decodeOpenAiChatRequest(body: unknown, options: { model: string; stream: boolean }): Decoded<CanonicalRequest> {
  const record = requireRecord(body, 'body');
  const warnings: TranslationWarning[] = [];
  const { system, messages } = decodeOpenAiMessages(record.messages, warnings);
  const request: CanonicalRequest = { model: options.model, system, messages, stream: options.stream, extensions: {} };
  decodeTools(record, request, warnings);
  decodeSampling(record, request);
  decodeReasoning(record, request, warnings);
  const responseFormat = decodeResponseFormat(record.response_format);
  if (responseFormat) request.responseFormat = responseFormat;
  const user = optionalString(record.user, 'user');
  if (user !== undefined) request.user = user;
  const extension = collectExtension(record, warnings);
  if (Object.keys(extension).length > 0) request.extensions.openai = extension;
  return { value: request, warnings };
}

function decodeSampling(record: JsonRecord, request: CanonicalRequest): void {
  const maxTokens = optionalInteger(record.max_completion_tokens, 'max_completion_tokens', 1) ?? optionalInteger(record.max_tokens, 'max_tokens', 1);
  if (maxTokens !== undefined) request.maxOutputTokens = maxTokens;
  const temperature = optionalNumber(record.temperature, 'temperature');
  if (temperature !== undefined) request.temperature = temperature;
  const topP = optionalNumber(record.top_p, 'top_p');
  if (topP !== undefined) request.topP = topP;
  if (typeof record.stop === 'string') request.stopSequences = [record.stop];
  else if (record.stop !== undefined && record.stop !== null) {
    request.stopSequences = requireArray(record.stop, 'stop').map((item, index) => {
      if (typeof item !== 'string') throw invalid(`stop[${index}]`, 'a string');
      return item;
    });
  }
}

function decodeTools(record: JsonRecord, request: CanonicalRequest, warnings: TranslationWarning[]): void {
  if (record.tools !== undefined && record.tools !== null) {
    const tools: ToolDefinition[] = [];
    requireArray(record.tools, 'tools').forEach((item, index) => {
      const tool = decodeTool(requireRecord(item, `tools[${index}]`), `tools[${index}]`, warnings);
      if (tool) tools.push(tool);
    });
    request.tools = tools;
  }
  if (record.tool_choice !== undefined && record.tool_choice !== null) request.toolChoice = decodeToolChoice(record.tool_choice, warnings);
  if (record.parallel_tool_calls !== undefined && record.parallel_tool_calls !== null) {
    if (typeof record.parallel_tool_calls !== 'boolean') throw invalid('parallel_tool_calls', 'a boolean');
    request.parallelToolCalls = record.parallel_tool_calls;
  }
  if (record.functions !== undefined) warnings.push({ code: 'dropped:functions', detail: 'the deprecated functions field; use tools' });
}

function decodeTool(tool: JsonRecord, param: string, warnings: TranslationWarning[]): ToolDefinition | undefined {
  if (tool.type !== 'function') {
    warnings.push({ code: `dropped:tool:${String(tool.type)}`, detail: `${param}: only function tools cross dialects` });
    return undefined;
  }
  const fn = requireRecord(tool.function, `${param}.function`);
  const name = optionalString(fn.name, `${param}.function.name`);
  if (name === undefined) throw missing(`${param}.function.name`);
  const definition: ToolDefinition = { type: 'function', name, parameters: { type: 'object', properties: {} } };
  const description = optionalString(fn.description, `${param}.function.description`);
  if (description !== undefined) definition.description = description;
  if (fn.parameters !== undefined && fn.parameters !== null) definition.parameters = requireRecord(fn.parameters, `${param}.function.parameters`);
  if (typeof fn.strict === 'boolean') definition.strict = fn.strict;
  return definition;
}

function decodeToolChoice(value: unknown, warnings: TranslationWarning[]): ToolChoice {
  if (value === 'auto' || value === 'none' || value === 'required') return { type: value };
  const choice = requireRecord(value, 'tool_choice');
  if (choice.type === 'function') {
    const name = optionalString(requireRecord(choice.function, 'tool_choice.function').name, 'tool_choice.function.name');
    if (name === undefined) throw missing('tool_choice.function.name');
    return { type: 'tool', name };
  }
  if (choice.type === 'allowed_tools') {
    warnings.push({ code: 'mapped:tool_choice', detail: 'allowed_tools became auto/required over all tools' });
    const mode = isPlainObject(choice.allowed_tools) ? choice.allowed_tools.mode : undefined;
    return { type: mode === 'required' ? 'required' : 'auto' };
  }
  throw invalid('tool_choice', 'auto, none, required or {type:"function",function:{name}}');
}

function decodeReasoning(record: JsonRecord, request: CanonicalRequest, warnings: TranslationWarning[]): void {
  const effort = optionalString(record.reasoning_effort, 'reasoning_effort');
  if (effort === undefined || effort === 'none') return; // 'none' rides in extensions.openai (below)
  let reasoning: ReasoningConfig;
  if (EFFORTS.has(effort)) reasoning = { effort: effort as NonNullable<ReasoningConfig['effort']> };
  else if (effort === 'xhigh') {
    reasoning = { effort: 'max' };
    warnings.push({ code: 'mapped:reasoning_effort', detail: 'xhigh became max' });
  } else throw invalid('reasoning_effort', 'one of none, minimal, low, medium, high, xhigh, max');
  request.reasoning = reasoning;
}

function decodeResponseFormat(value: unknown): ResponseFormat | undefined {
  if (value === undefined || value === null) return undefined;
  const format = requireRecord(value, 'response_format');
  if (format.type === 'text') return { type: 'text' };
  if (format.type === 'json_object') return { type: 'json' };
  if (format.type !== 'json_schema') throw invalid('response_format.type', 'text, json_object or json_schema');
  const spec = requireRecord(format.json_schema, 'response_format.json_schema');
  const name = optionalString(spec.name, 'response_format.json_schema.name');
  if (name === undefined) throw missing('response_format.json_schema.name');
  const schema = spec.schema === undefined ? {} : requireRecord(spec.schema, 'response_format.json_schema.schema');
  return { type: 'json-schema', name, schema, ...(typeof spec.strict === 'boolean' ? { strict: spec.strict } : {}) };
}

function collectExtension(record: JsonRecord, warnings: TranslationWarning[]): JsonRecord {
  const extension: JsonRecord = {};
  for (const field of OPENAI_EXTENSION_FIELDS) {
    if (record[field] !== undefined && record[field] !== null) extension[field] = record[field];
  }
  if (record.reasoning_effort === 'none') extension.reasoning_effort = 'none';
  for (const key of Object.keys(record)) {
    if (!HANDLED_FIELDS.has(key) && key !== 'functions' && key !== 'function_call') warnings.push({ code: `dropped:${key}`, detail: 'not a Chat Completions field gw knows' });
  }
  if (record.function_call !== undefined) warnings.push({ code: 'dropped:function_call', detail: 'the deprecated function_call field; use tool_choice' });
  return extension;
}
