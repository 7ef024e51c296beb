// A client's Messages body (Claude Code, the Anthropic SDK, opencode) → the canonical request.
// https://docs.anthropic.com/en/api/messages
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest, ReasoningConfig, ResponseFormat } from '../../canonical/request.js';
import type { ToolChoice, ToolDefinition } from '../../canonical/tools.js';
import { decodeCacheControl } from './decode-content.js';
import { decodeAnthropicMessages, decodeAnthropicSystem } from './decode-messages.js';
import {
  invalid, missing, optionalInteger, optionalNumber, optionalString, requireArray, requireRecord, requireString, type JsonRecord,
} from '../shared/json-guards.js';

/** Fields only Anthropic has (Claude Code sends them): kept in extensions.anthropic, read back by encodeRequest. */
const ANTHROPIC_EXTENSION_FIELDS = [
  'context_management', 'container', 'mcp_servers', 'service_tier', 'inference_geo', 'anthropic_version', 'anthropic_beta',
] as const;

const HANDLED_FIELDS = new Set<string>([
  'model', 'messages', 'system', 'max_tokens', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'stream', 'tools',
  'tool_choice', 'thinking', 'output_config', 'metadata', ...ANTHROPIC_EXTENSION_FIELDS,
]);

const EFFORTS = new Set(['low', 'medium', 'high', 'max']);

export function decodeAnthropicRequest(body: unknown, options: { model: string; stream: boolean }): Decoded<CanonicalRequest> {
  const record = requireRecord(body, 'body');
  const warnings: TranslationWarning[] = [];
  const system = decodeAnthropicSystem(record.system, 'system', warnings);
  const decoded = decodeAnthropicMessages(record.messages, warnings);
  const request: CanonicalRequest = {
    model: options.model, system: [...system, ...decoded.system], messages: decoded.messages, stream: options.stream, extensions: {},
  };
  const extension: JsonRecord = {};
  decodeTools(record, request, extension, warnings);
  decodeSampling(record, request);
  decodeThinking(record, request, extension, warnings);
  decodeOutputConfig(record, request, warnings);
  if (record.metadata !== undefined && record.metadata !== null) {
    const user = optionalString(requireRecord(record.metadata, 'metadata').user_id, 'metadata.user_id');
    if (user !== undefined) request.user = user;
  }
  for (const field of ANTHROPIC_EXTENSION_FIELDS) {
    if (record[field] !== undefined && record[field] !== null) extension[field] = record[field];
  }
  for (const key of Object.keys(record)) {
    if (!HANDLED_FIELDS.has(key)) warnings.push({ code: `dropped:${key}`, detail: 'not a Messages field gw knows' });
  }
  if (Object.keys(extension).length > 0) request.extensions.anthropic = extension;
  return { value: request, warnings };
}

function decodeSampling(record: JsonRecord, request: CanonicalRequest): void {
  const maxTokens = optionalInteger(record.max_tokens, 'max_tokens', 1);
  if (maxTokens !== undefined) request.maxOutputTokens = maxTokens;
  const temperature = optionalNumber(record.temperature, 'temperature');
  if (temperature !== undefined) request.temperature = temperature;
  const topP = optionalNumber(record.top_p, 'top_p');
  if (topP !== undefined) request.topP = topP;
  const topK = optionalInteger(record.top_k, 'top_k', 1);
  if (topK !== undefined) request.topK = topK;
  if (record.stop_sequences !== undefined && record.stop_sequences !== null) {
    request.stopSequences = requireArray(record.stop_sequences, 'stop_sequences').map((item, index) => {
      if (typeof item !== 'string') throw invalid(`stop_sequences[${index}]`, 'a string');
      return item;
    });
  }
}

function decodeTools(record: JsonRecord, request: CanonicalRequest, extension: JsonRecord, warnings: TranslationWarning[]): void {
  if (record.tools !== undefined && record.tools !== null) {
    const tools: ToolDefinition[] = [];
    const serverTools: unknown[] = [];
    const cacheControls = new Map<string, unknown>(); // tool names such as "constructor" or "__proto__" stay plain keys
    requireArray(record.tools, 'tools').forEach((item, index) => {
      const param = `tools[${index}]`;
      const tool = requireRecord(item, param);
      // Server tools (web_search_20250305, bash_…, text_editor_…) only exist on Anthropic: kept aside for it.
      if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
        serverTools.push(tool);
        return;
      }
      const definition = decodeTool(tool, param, warnings);
      const cacheControl = decodeCacheControl(tool.cache_control, `${param}.cache_control`);
      if (cacheControl) cacheControls.set(definition.name, cacheControl);
      tools.push(definition);
    });
    request.tools = tools;
    if (serverTools.length > 0) extension.server_tools = serverTools;
    if (cacheControls.size > 0) extension.tool_cache_control = Object.fromEntries(cacheControls);
  }
  if (record.tool_choice !== undefined && record.tool_choice !== null) decodeToolChoice(requireRecord(record.tool_choice, 'tool_choice'), request);
}

const IGNORED_TOOL_FIELDS = new Set(['name', 'description', 'input_schema', 'cache_control', 'strict', 'type']);

function decodeTool(tool: JsonRecord, param: string, warnings: TranslationWarning[]): ToolDefinition {
  const name = requireString(tool.name, `${param}.name`);
  const definition: ToolDefinition = { type: 'function', name, parameters: requireRecord(tool.input_schema, `${param}.input_schema`) };
  const description = optionalString(tool.description, `${param}.description`);
  if (description !== undefined) definition.description = description;
  if (typeof tool.strict === 'boolean') definition.strict = tool.strict;
  for (const key of Object.keys(tool)) {
    if (!IGNORED_TOOL_FIELDS.has(key)) warnings.push({ code: `dropped:tool.${key}`, detail: `${param}.${key}` });
  }
  return definition;
}

function decodeToolChoice(choice: JsonRecord, request: CanonicalRequest): void {
  let decoded: ToolChoice;
  if (choice.type === 'auto' || choice.type === 'none') decoded = { type: choice.type };
  else if (choice.type === 'any') decoded = { type: 'required' };
  else if (choice.type === 'tool') decoded = { type: 'tool', name: requireString(choice.name, 'tool_choice.name') };
  else throw invalid('tool_choice.type', 'one of auto, any, tool, none');
  request.toolChoice = decoded;
  if (choice.disable_parallel_tool_use === true) request.parallelToolCalls = false;
}

function decodeThinking(record: JsonRecord, request: CanonicalRequest, extension: JsonRecord, warnings: TranslationWarning[]): void {
  if (record.thinking === undefined || record.thinking === null) return;
  const thinking = requireRecord(record.thinking, 'thinking');
  const include = thinking.display !== 'omitted';
  if (thinking.type === 'enabled') {
    const budgetTokens = optionalInteger(thinking.budget_tokens, 'thinking.budget_tokens', 1);
    if (budgetTokens === undefined) throw missing('thinking.budget_tokens');
    request.reasoning = { budgetTokens, include };
  } else if (thinking.type === 'adaptive') request.reasoning = { include };
  else if (thinking.type === 'disabled' || thinking.type === 'between_tools') extension.thinking = thinking;
  else throw invalid('thinking.type', 'one of enabled, adaptive, disabled');
  if (thinking.display === 'summarized') warnings.push({ code: 'dropped:thinking.display', detail: 'summarized is the default display' });
}

function decodeOutputConfig(record: JsonRecord, request: CanonicalRequest, warnings: TranslationWarning[]): void {
  if (record.output_config === undefined || record.output_config === null) return;
  const config = requireRecord(record.output_config, 'output_config');
  const effort = optionalString(config.effort, 'output_config.effort');
  if (effort !== undefined) {
    if (!EFFORTS.has(effort) && effort !== 'xhigh') throw invalid('output_config.effort', 'one of low, medium, high, xhigh, max');
    if (effort === 'xhigh') warnings.push({ code: 'mapped:reasoning_effort', detail: 'xhigh became max' });
    const mapped = (effort === 'xhigh' ? 'max' : effort) as NonNullable<ReasoningConfig['effort']>;
    request.reasoning = { ...request.reasoning, effort: mapped };
  }
  if (config.format !== undefined && config.format !== null) request.responseFormat = decodeFormat(requireRecord(config.format, 'output_config.format'));
}

function decodeFormat(format: JsonRecord): ResponseFormat {
  if (format.type !== 'json_schema') throw invalid('output_config.format.type', '"json_schema"');
  // Anthropic's structured outputs have no schema name; "response" stands in for one.
  return { type: 'json-schema', name: 'response', schema: requireRecord(format.schema, 'output_config.format.schema') };
}

