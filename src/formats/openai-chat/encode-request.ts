// The canonical request → a Chat Completions body for an OpenAI or OpenAI-compatible provider.
// https://platform.openai.com/docs/api-reference/chat/create
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest, ReasoningConfig, ResponseFormat } from '../../canonical/request.js';
import type { ToolChoice, ToolDefinition } from '../../canonical/tools.js';
import { encodeOpenAiMessages } from './encode-messages.js';
import { isPlainObject as isObject } from '../../is-plain-object.js';

type Wire = Record<string, unknown>;

export function encodeOpenAiChatRequest(request: CanonicalRequest): Decoded<Wire> {
  const warnings: TranslationWarning[] = [];
  const body: Wire = { model: request.model, messages: encodeOpenAiMessages(request.system, request.messages, warnings) };
  if (request.tools !== undefined) body.tools = request.tools.map(encodeTool);
  if (request.toolChoice !== undefined) body.tool_choice = encodeToolChoice(request.toolChoice);
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  // max_tokens is deprecated and refused by reasoning models; max_completion_tokens works for all.
  if (request.maxOutputTokens !== undefined) body.max_completion_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) warnings.push({ code: 'dropped:top_k', detail: 'chat completions has no top_k' });
  if (request.stopSequences !== undefined) body.stop = request.stopSequences;
  if (request.responseFormat !== undefined) body.response_format = encodeResponseFormat(request.responseFormat);
  if (request.reasoning !== undefined) encodeReasoning(request.reasoning, body, warnings);
  if (request.user !== undefined) body.user = request.user;
  Object.assign(body, request.extensions.openai ?? {});
  if (request.stream) {
    body.stream = true;
    // gw needs usage to count and audit; the client's own choice is applied when encoding back.
    body.stream_options = { ...(isObject(body.stream_options) ? body.stream_options : {}), include_usage: true };
  } else delete body.stream_options; // OpenAI refuses stream_options without stream
  warnForeignExtensions(request, warnings);
  return { value: body, warnings };
}

function encodeTool(tool: ToolDefinition): Wire {
  const fn: Wire = { name: tool.name };
  if (tool.description !== undefined) fn.description = tool.description;
  fn.parameters = tool.parameters;
  if (tool.strict !== undefined) fn.strict = tool.strict;
  return { type: 'function', function: fn };
}

function encodeToolChoice(choice: ToolChoice): unknown {
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type;
}

function encodeResponseFormat(format: ResponseFormat): Wire {
  if (format.type === 'text') return { type: 'text' };
  if (format.type === 'json') return { type: 'json_object' };
  const spec: Wire = { name: format.name, schema: format.schema };
  if (format.strict !== undefined) spec.strict = format.strict;
  return { type: 'json_schema', json_schema: spec };
}

/** Chat has only reasoning_effort: a thinking budget becomes the nearest effort. */
function encodeReasoning(reasoning: ReasoningConfig, body: Wire, warnings: TranslationWarning[]): void {
  if (reasoning.effort !== undefined) body.reasoning_effort = reasoning.effort;
  else if (reasoning.budgetTokens !== undefined) {
    body.reasoning_effort = reasoning.budgetTokens <= 2048 ? 'low' : reasoning.budgetTokens <= 16384 ? 'medium' : 'high';
    warnings.push({ code: 'mapped:reasoning.budget_tokens', detail: `budget ${reasoning.budgetTokens} became reasoning_effort ${String(body.reasoning_effort)}` });
  }
  if (reasoning.effort !== undefined && reasoning.budgetTokens !== undefined) {
    warnings.push({ code: 'dropped:reasoning.budget_tokens', detail: 'chat completions takes an effort, not a budget' });
  }
  if (reasoning.include !== undefined) warnings.push({ code: 'dropped:reasoning.include', detail: 'chat completions does not return reasoning' });
}

/** What another dialect kept for itself cannot reach an OpenAI provider. */
function warnForeignExtensions(request: CanonicalRequest, warnings: TranslationWarning[]): void {
  for (const [dialect, fields] of Object.entries(request.extensions)) {
    if (dialect === 'openai') continue;
    for (const [field, value] of Object.entries(fields)) {
      if (field === 'server_tools' && Array.isArray(value)) {
        for (const tool of value) warnings.push({ code: `dropped:tool:${toolName(tool)}`, detail: `a ${dialect} server tool` });
      } else warnings.push({ code: `dropped:${field}`, detail: `extensions.${dialect}.${field}` });
    }
  }
}

function toolName(tool: unknown): string {
  return isObject(tool) && typeof tool.name === 'string' ? tool.name : 'unknown';
}
