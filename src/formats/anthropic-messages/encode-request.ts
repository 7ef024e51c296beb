// The canonical request → a Messages body for Anthropic.
// https://docs.anthropic.com/en/api/messages
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest, ReasoningConfig } from '../../canonical/request.js';
import type { ToolDefinition } from '../../canonical/tools.js';
import { encodeTextBlock } from './encode-content.js';
import { encodeAnthropicMessages } from './encode-messages.js';

type Wire = Record<string, unknown>;

/** max_tokens is required by Anthropic; used when the client set none (and above a thinking budget). */
const DEFAULT_MAX_TOKENS = 4096;

export function encodeAnthropicRequest(request: CanonicalRequest): Decoded<Wire> {
  const warnings: TranslationWarning[] = [];
  const extension = { ...(request.extensions.anthropic ?? {}) };
  const body: Wire = { model: request.model, max_tokens: maxTokens(request, warnings) };
  if (request.system.length > 0) body.system = request.system.map(encodeTextBlock);
  body.messages = encodeAnthropicMessages(request.messages, warnings);
  encodeTools(request, extension, body);
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) body.top_k = request.topK;
  if (request.stopSequences !== undefined) body.stop_sequences = request.stopSequences;
  if (request.reasoning !== undefined) encodeReasoning(request.reasoning, body, warnings);
  encodeResponseFormat(request, body, warnings);
  if (request.user !== undefined) body.metadata = { user_id: request.user };
  if (request.stream) body.stream = true;
  Object.assign(body, extension);
  warnForeignExtensions(request, warnings);
  return { value: body, warnings };
}

function maxTokens(request: CanonicalRequest, warnings: TranslationWarning[]): number {
  if (request.maxOutputTokens !== undefined) return request.maxOutputTokens;
  const budget = request.reasoning?.budgetTokens ?? 0;
  const value = Math.max(DEFAULT_MAX_TOKENS, budget + DEFAULT_MAX_TOKENS * (budget > 0 ? 1 : 0));
  warnings.push({ code: 'defaulted:max_tokens', detail: `Anthropic requires max_tokens; sent ${value}` });
  return value;
}

/** Tool cache breakpoints and server tools kept by decodeRequest go back in place. */
function encodeTools(request: CanonicalRequest, extension: Wire, body: Wire): void {
  const cacheControls = (extension.tool_cache_control ?? {}) as Record<string, unknown>;
  const serverTools: unknown[] = Array.isArray(extension.server_tools) ? extension.server_tools : [];
  delete extension.tool_cache_control;
  delete extension.server_tools;
  if (request.tools !== undefined || serverTools.length > 0) {
    body.tools = [...(request.tools ?? []).map((tool) => encodeTool(tool, Object.hasOwn(cacheControls, tool.name) ? cacheControls[tool.name] : undefined)), ...serverTools];
  }
  const choice = request.toolChoice;
  if (choice === undefined) {
    if (request.parallelToolCalls === false) body.tool_choice = { type: 'auto', disable_parallel_tool_use: true };
    return;
  }
  const wire: Wire = choice.type === 'required' ? { type: 'any' } : choice.type === 'tool' ? { type: 'tool', name: choice.name } : { type: choice.type };
  if (request.parallelToolCalls === false && choice.type !== 'none') wire.disable_parallel_tool_use = true;
  body.tool_choice = wire;
}

function encodeTool(tool: ToolDefinition, cacheControl: unknown): Wire {
  const wire: Wire = { name: tool.name };
  if (tool.description !== undefined) wire.description = tool.description;
  wire.input_schema = tool.parameters;
  if (tool.strict !== undefined) wire.strict = tool.strict;
  if (cacheControl !== undefined) wire.cache_control = cacheControl;
  return wire;
}

/** budget → thinking enabled; include alone → adaptive; effort → output_config.effort. */
function encodeReasoning(reasoning: ReasoningConfig, body: Wire, warnings: TranslationWarning[]): void {
  const display = reasoning.include === false ? { display: 'omitted' } : {};
  if (reasoning.budgetTokens !== undefined) body.thinking = { type: 'enabled', budget_tokens: reasoning.budgetTokens, ...display };
  else if (reasoning.include !== undefined) body.thinking = { type: 'adaptive', ...display };
  if (reasoning.effort !== undefined) {
    const effort = reasoning.effort === 'minimal' ? 'low' : reasoning.effort;
    if (reasoning.effort === 'minimal') warnings.push({ code: 'mapped:reasoning_effort', detail: 'minimal became low' });
    body.output_config = { effort };
  }
}

function encodeResponseFormat(request: CanonicalRequest, body: Wire, warnings: TranslationWarning[]): void {
  const format = request.responseFormat;
  if (format === undefined || format.type === 'text') return;
  if (format.type === 'json') {
    warnings.push({ code: 'dropped:response_format', detail: 'Anthropic has structured outputs with a schema, no bare JSON mode' });
    return;
  }
  if (format.name !== 'response') warnings.push({ code: 'dropped:response_format.name', detail: format.name });
  if (format.strict === false) warnings.push({ code: 'mapped:response_format.strict', detail: 'Anthropic structured outputs are always strict' });
  const config = (body.output_config ?? {}) as Wire;
  body.output_config = { ...config, format: { type: 'json_schema', schema: format.schema } };
}

/** What another dialect kept for itself cannot reach Anthropic. */
function warnForeignExtensions(request: CanonicalRequest, warnings: TranslationWarning[]): void {
  for (const [dialect, fields] of Object.entries(request.extensions)) {
    if (dialect === 'anthropic') continue;
    // stream_options is the client's own stream preference, applied by gw when it encodes the stream back.
    for (const [field, value] of Object.entries(fields)) {
      if (field === 'stream_options') continue;
      // Another provider's built-in tools, each named (dropped:tool:web_search).
      if (field === 'tools' && Array.isArray(value)) {
        for (const tool of value) warnings.push({ code: `dropped:tool:${typeof (tool as { type?: unknown })?.type === 'string' ? (tool as { type: string }).type : 'unknown'}`, detail: `a ${dialect} built-in tool` });
      } else warnings.push({ code: `dropped:${field}`, detail: `extensions.${dialect}.${field}` });
    }
  }
}
