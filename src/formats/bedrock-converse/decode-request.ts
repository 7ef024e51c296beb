// Client side: a Converse / ConverseStream body → canonical. The model id is in the path
// (options.model); what has no canonical field rides in extensions.bedrock.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_RequestSyntax
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest, Message, TextPart } from '../../canonical/request.js';
import type { ToolChoice, ToolDefinition } from '../../canonical/tools.js';
import { decodeMessage, markCached, type DecodeScope } from './decode-content.js';
import {
  requireArray, invalid, isPlainObject, requireRecord, optionalNumber, optionalStringArray, requireString, type JsonRecord,
} from '../shared/json-guards.js';

/** Top-level fields kept as they are for a Bedrock provider. */
export const BEDROCK_PASSTHROUGH_FIELDS = [
  'guardrailConfig', 'promptVariables', 'requestMetadata', 'performanceConfig', 'additionalModelResponseFieldPaths', 'serviceTier', 'outputConfig',
] as const;

export function decodeBedrockRequest(body: unknown, options: { model: string; stream: boolean }): Decoded<CanonicalRequest> {
  if (!isPlainObject(body)) throw invalid('body', 'a JSON object');
  const scope: DecodeScope = { warnings: [], toolNames: new Map() };
  const messages: Message[] = [];
  requireArray(body.messages ?? [], 'messages').forEach((value, index) => messages.push(...decodeMessage(value, `messages[${index}]`, scope)));
  const request: CanonicalRequest = {
    model: options.model, system: decodeSystem(body.system, scope), messages, stream: options.stream, extensions: {},
  };
  readInferenceConfig(body.inferenceConfig, request);
  if (body.toolConfig !== undefined) readToolConfig(requireRecord(body.toolConfig, 'toolConfig'), request, scope.warnings);
  const extension = readExtension(body, request);
  if (Object.keys(extension).length > 0) request.extensions.bedrock = extension;
  return { value: request, warnings: scope.warnings };
}

function decodeSystem(value: unknown, scope: DecodeScope): TextPart[] {
  const system: TextPart[] = [];
  requireArray(value ?? [], 'system').forEach((item, index) => {
    const block = requireRecord(item, `system[${index}]`);
    if (typeof block.text === 'string') system.push({ type: 'text', text: block.text });
    else if (block.cachePoint !== undefined) markCached(system.at(-1), block.cachePoint, scope);
    else scope.warnings.push({ code: `dropped:system:${Object.keys(block)[0] ?? 'empty'}` });
  });
  return system;
}

function readInferenceConfig(value: unknown, request: CanonicalRequest): void {
  if (value === undefined) return;
  const config = requireRecord(value, 'inferenceConfig');
  const maxTokens = optionalNumber(config.maxTokens, 'inferenceConfig.maxTokens');
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) throw invalid('inferenceConfig.maxTokens', 'a positive integer');
  if (maxTokens !== undefined) request.maxOutputTokens = maxTokens;
  const temperature = optionalNumber(config.temperature, 'inferenceConfig.temperature');
  if (temperature !== undefined) request.temperature = temperature;
  const topP = optionalNumber(config.topP, 'inferenceConfig.topP');
  if (topP !== undefined) request.topP = topP;
  const stop = optionalStringArray(config.stopSequences, 'inferenceConfig.stopSequences');
  if (stop !== undefined) request.stopSequences = stop;
}

// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolConfiguration.html
function readToolConfig(config: JsonRecord, request: CanonicalRequest, warnings: TranslationWarning[]): void {
  const tools: ToolDefinition[] = [];
  requireArray(config.tools ?? [], 'toolConfig.tools').forEach((value, index) => {
    const tool = requireRecord(value, `toolConfig.tools[${index}]`);
    if (tool.toolSpec === undefined) {
      warnings.push({ code: `dropped:tool:${Object.keys(tool)[0] ?? 'empty'}` });
      return;
    }
    tools.push(readToolSpec(requireRecord(tool.toolSpec, `toolConfig.tools[${index}].toolSpec`), `toolConfig.tools[${index}].toolSpec`));
  });
  if (tools.length > 0) request.tools = tools;
  if (config.toolChoice !== undefined) request.toolChoice = readToolChoice(requireRecord(config.toolChoice, 'toolConfig.toolChoice'));
}

function readToolSpec(spec: JsonRecord, param: string): ToolDefinition {
  const tool: ToolDefinition = { type: 'function', name: requireString(spec.name, `${param}.name`), parameters: {} };
  if (typeof spec.description === 'string') tool.description = spec.description;
  const schema = isPlainObject(spec.inputSchema) ? spec.inputSchema.json : undefined;
  if (!isPlainObject(schema)) throw invalid(`${param}.inputSchema.json`, 'a JSON Schema object');
  tool.parameters = schema;
  if (typeof spec.strict === 'boolean') tool.strict = spec.strict;
  return tool;
}

function readToolChoice(choice: JsonRecord): ToolChoice {
  if (choice.auto !== undefined) return { type: 'auto' };
  if (choice.any !== undefined) return { type: 'required' };
  if (isPlainObject(choice.tool)) return { type: 'tool', name: requireString(choice.tool.name, 'toolConfig.toolChoice.tool.name') };
  throw invalid('toolConfig.toolChoice', '{ auto: {} }, { any: {} } or { tool: { name } }');
}

// additionalModelRequestFields is the model's own body: Claude's `thinking` and `top_k` map to
// canonical fields; the rest stays for a Bedrock provider.
function readExtension(body: JsonRecord, request: CanonicalRequest): Record<string, unknown> {
  const extension: Record<string, unknown> = {};
  for (const key of BEDROCK_PASSTHROUGH_FIELDS) if (body[key] !== undefined) extension[key] = body[key];
  if (body.additionalModelRequestFields === undefined) return extension;
  const rest = { ...requireRecord(body.additionalModelRequestFields, 'additionalModelRequestFields') };
  const thinking = rest.thinking;
  if (isPlainObject(thinking) && thinking.type === 'enabled' && typeof thinking.budget_tokens === 'number' && Object.keys(thinking).length === 2) {
    request.reasoning = { budgetTokens: thinking.budget_tokens, include: true };
    delete rest.thinking;
  }
  if (typeof rest.top_k === 'number') {
    request.topK = rest.top_k;
    delete rest.top_k;
  }
  if (Object.keys(rest).length > 0) extension.additionalModelRequestFields = rest;
  return extension;
}
