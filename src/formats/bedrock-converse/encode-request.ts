// Provider side: canonical → a Converse body. The model id goes in the URL, not the body.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_RequestSyntax
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest } from '../../canonical/request.js';
import type { ToolChoice } from '../../canonical/tools.js';
import { BEDROCK_PASSTHROUGH_FIELDS } from './decode-request.js';
import { encodeMessages, withCachePoint } from './encode-content.js';

export function encodeBedrockRequest(request: CanonicalRequest): Decoded<Record<string, unknown>> {
  const warnings: TranslationWarning[] = [];
  const body: Record<string, unknown> = { messages: encodeMessages(request.messages, warnings) };
  if (request.system.length > 0) body.system = request.system.flatMap((part) => withCachePoint({ text: part.text }, part.cacheControl, warnings));
  const inference = encodeInferenceConfig(request);
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  const toolConfig = encodeToolConfig(request, warnings);
  if (toolConfig !== undefined) body.toolConfig = toolConfig;
  Object.assign(body, encodeExtensions(request, warnings));
  const additional = encodeAdditionalFields(request, warnings);
  if (Object.keys(additional).length > 0) body.additionalModelRequestFields = additional;
  warnUnsupported(request, warnings);
  return { value: body, warnings };
}

function encodeInferenceConfig(request: CanonicalRequest): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (request.maxOutputTokens !== undefined) config.maxTokens = request.maxOutputTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.stopSequences !== undefined) config.stopSequences = request.stopSequences;
  return config;
}

// Converse has no "none": the tools stay (history with toolUse blocks requires toolConfig) and the choice is dropped.
function encodeToolConfig(request: CanonicalRequest, warnings: TranslationWarning[]): Record<string, unknown> | undefined {
  if (request.tools === undefined || request.tools.length === 0) {
    if (request.toolChoice !== undefined) warnings.push({ code: 'dropped:tool_choice', detail: 'no tools' });
    return undefined;
  }
  const tools = request.tools.map((tool) => {
    const spec: Record<string, unknown> = { name: tool.name };
    if (tool.description !== undefined) spec.description = tool.description;
    spec.inputSchema = { json: tool.parameters };
    if (tool.strict !== undefined) spec.strict = tool.strict;
    return { toolSpec: spec };
  });
  const config: Record<string, unknown> = { tools };
  const choice = encodeToolChoice(request.toolChoice, warnings);
  if (choice !== undefined) config.toolChoice = choice;
  return config;
}

function encodeToolChoice(choice: ToolChoice | undefined, warnings: TranslationWarning[]): Record<string, unknown> | undefined {
  switch (choice?.type) {
    case undefined: return undefined;
    case 'auto': return { auto: {} };
    case 'required': return { any: {} };
    case 'tool': return { tool: { name: choice.name } };
    case 'none':
      warnings.push({ code: 'dropped:tool_choice:none', detail: 'Converse has no "none" tool choice' });
      return undefined;
  }
}

function encodeExtensions(request: CanonicalRequest, warnings: TranslationWarning[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [dialect, fields] of Object.entries(request.extensions)) {
    if (dialect !== 'bedrock') {
      warnings.push({ code: `dropped:extension:${dialect}` });
      continue;
    }
    for (const key of BEDROCK_PASSTHROUGH_FIELDS) if (fields[key] !== undefined) out[key] = fields[key];
  }
  return out;
}

// Claude's own body fields (https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages.html).
function encodeAdditionalFields(request: CanonicalRequest, warnings: TranslationWarning[]): Record<string, unknown> {
  const extra = request.extensions.bedrock?.additionalModelRequestFields;
  const fields: Record<string, unknown> = typeof extra === 'object' && extra !== null ? { ...(extra as Record<string, unknown>) } : {};
  if (request.topK !== undefined) fields.top_k = request.topK;
  const reasoning = request.reasoning;
  if (reasoning?.budgetTokens !== undefined) fields.thinking = { type: 'enabled', budget_tokens: reasoning.budgetTokens };
  else if (reasoning?.effort !== undefined) warnings.push({ code: 'dropped:reasoning_effort', detail: reasoning.effort });
  return fields;
}

function warnUnsupported(request: CanonicalRequest, warnings: TranslationWarning[]): void {
  if (request.responseFormat !== undefined && request.responseFormat.type !== 'text') {
    warnings.push({ code: 'dropped:response_format', detail: request.responseFormat.type });
  }
  if (request.user !== undefined) warnings.push({ code: 'dropped:user' });
  if (request.parallelToolCalls === false) warnings.push({ code: 'dropped:parallel_tool_calls' });
}
