// A GenAI generateContent body → canonical. The model is in the URL path
// (`/v1beta/models/{model}:generateContent`), so it comes from options.model.
// https://ai.google.dev/api/generate-content#request-body
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest, ReasoningConfig, ResponseFormat } from '../../canonical/request.js';
import type { ToolChoice, ToolDefinition } from '../../canonical/tools.js';
import { normalizeGeminiSchema } from './clean-json-schema.js';
import { decodeContents, decodeSystemInstruction } from './decode-contents.js';
import {
  invalid, optionalArray, optionalBoolean, optionalInteger, optionalNumber, optionalRecord, optionalString,
  optionalStringOrArray, requireRecord, type JsonRecord,
} from '../shared/json-guards.js';

const TOP_LEVEL = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig', 'safetySettings', 'cachedContent', 'model']);
const GENERATION_MAPPED = new Set(['maxOutputTokens', 'temperature', 'topP', 'topK', 'stopSequences', 'responseMimeType',
  'responseSchema', 'responseJsonSchema', 'thinkingConfig']);

export function decodeGoogleRequest(body: unknown, options: { model: string; stream: boolean }): Decoded<CanonicalRequest> {
  const record = requireRecord(body, 'body');
  const warnings: TranslationWarning[] = [];
  const google: JsonRecord = {};
  const request: CanonicalRequest = {
    model: options.model,
    system: decodeSystemInstruction(record.systemInstruction),
    messages: decodeContents(record.contents, warnings),
    stream: options.stream,
    extensions: {},
  };
  const tools = decodeTools(record.tools, google);
  if (tools.length > 0) request.tools = tools;
  const toolChoice = decodeToolConfig(record.toolConfig, google);
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  decodeGenerationConfig(record.generationConfig, request, google);
  if (record.safetySettings !== undefined) google.safetySettings = optionalArray(record.safetySettings, 'safetySettings');
  if (record.cachedContent !== undefined) google.cachedContent = optionalString(record.cachedContent, 'cachedContent');
  for (const key of Object.keys(record)) if (!TOP_LEVEL.has(key)) warnings.push({ code: `dropped:${key}` });
  if (Object.keys(google).length > 0) request.extensions.google = google;
  return { value: request, warnings };
}

function decodeTools(value: unknown, google: JsonRecord): ToolDefinition[] {
  const definitions: ToolDefinition[] = [];
  const builtIn: JsonRecord[] = [];
  optionalArray(value, 'tools').forEach((item, toolIndex) => {
    const tool = requireRecord(item, `tools[${toolIndex}]`);
    const { functionDeclarations, ...rest } = tool;
    optionalArray(functionDeclarations, `tools[${toolIndex}].functionDeclarations`).forEach((declaration, index) => {
      definitions.push(decodeFunctionDeclaration(declaration, `tools[${toolIndex}].functionDeclarations[${index}]`));
    });
    // googleSearch, codeExecution, urlContext…: only Gemini runs them; kept for a Gemini target.
    if (Object.keys(rest).length > 0) builtIn.push(rest);
  });
  if (builtIn.length > 0) google.tools = builtIn;
  return definitions;
}

function decodeFunctionDeclaration(value: unknown, param: string): ToolDefinition {
  const declaration = requireRecord(value, param);
  const name = optionalString(declaration.name, `${param}.name`);
  if (name === undefined || name === '') throw invalid(`${param}.name`, 'a non-empty string');
  const description = optionalString(declaration.description, `${param}.description`);
  const schema = optionalRecord(declaration.parametersJsonSchema, `${param}.parametersJsonSchema`)
    ?? optionalRecord(declaration.parameters, `${param}.parameters`);
  const parameters = schema === undefined ? { type: 'object', properties: {} } : normalizeGeminiSchema(schema) as JsonRecord;
  return { type: 'function', name, ...(description === undefined ? {} : { description }), parameters };
}

/** https://ai.google.dev/api/caching#FunctionCallingConfig */
function decodeToolConfig(value: unknown, google: JsonRecord): ToolChoice | undefined {
  const config = optionalRecord(value, 'toolConfig');
  if (config === undefined) return undefined;
  const { functionCallingConfig, ...rest } = config;
  if (Object.keys(rest).length > 0) google.toolConfig = rest;
  const calling = optionalRecord(functionCallingConfig, 'toolConfig.functionCallingConfig');
  if (calling === undefined) return undefined;
  const mode = optionalString(calling.mode, 'toolConfig.functionCallingConfig.mode')?.toUpperCase();
  const names = optionalStringOrArray(calling.allowedFunctionNames, 'toolConfig.functionCallingConfig.allowedFunctionNames');
  if (mode === 'NONE') return { type: 'none' };
  if (mode === 'ANY' && names?.length === 1) return { type: 'tool', name: names[0]! };
  if (names !== undefined && names.length > 0) google.allowedFunctionNames = names;
  if (mode === 'ANY') return { type: 'required' };
  // VALIDATED (call or not, but schema-checked) has no canonical form: kept for Gemini, else auto.
  if (mode === 'VALIDATED') google.functionCallingMode = mode;
  return mode === undefined ? undefined : { type: 'auto' };
}

function decodeGenerationConfig(value: unknown, request: CanonicalRequest, google: JsonRecord): void {
  const config = optionalRecord(value, 'generationConfig');
  if (config === undefined) return;
  const param = (name: string): string => `generationConfig.${name}`;
  const maxOutputTokens = optionalInteger(config.maxOutputTokens, param('maxOutputTokens'));
  if (maxOutputTokens !== undefined) request.maxOutputTokens = maxOutputTokens;
  const temperature = optionalNumber(config.temperature, param('temperature'));
  if (temperature !== undefined) request.temperature = temperature;
  const topP = optionalNumber(config.topP, param('topP'));
  if (topP !== undefined) request.topP = topP;
  const topK = optionalNumber(config.topK, param('topK'));
  if (topK !== undefined) request.topK = topK;
  const stopSequences = optionalStringOrArray(config.stopSequences, param('stopSequences'));
  if (stopSequences !== undefined) request.stopSequences = stopSequences;
  const responseFormat = decodeResponseFormat(config);
  if (responseFormat !== undefined) request.responseFormat = responseFormat;
  const reasoning = decodeThinkingConfig(config.thinkingConfig, google);
  if (reasoning !== undefined) request.reasoning = reasoning;
  const rest = Object.fromEntries(Object.entries(config).filter(([key]) => !GENERATION_MAPPED.has(key)));
  if (Object.keys(rest).length > 0) google.generationConfig = rest;
}

/** responseMimeType + responseSchema (OpenAPI subset) or responseJsonSchema (JSON Schema). */
function decodeResponseFormat(config: JsonRecord): ResponseFormat | undefined {
  const mimeType = optionalString(config.responseMimeType, 'generationConfig.responseMimeType');
  const schema = optionalRecord(config.responseJsonSchema, 'generationConfig.responseJsonSchema')
    ?? optionalRecord(config.responseSchema, 'generationConfig.responseSchema');
  if (schema !== undefined) return { type: 'json-schema', name: 'response', schema: normalizeGeminiSchema(schema) as JsonRecord };
  if (mimeType === 'application/json') return { type: 'json' };
  if (mimeType === 'text/plain') return { type: 'text' };
  return undefined;
}

const EFFORTS = new Set(['minimal', 'low', 'medium', 'high']);

/** https://ai.google.dev/gemini-api/docs/thinking: thinkingBudget (2.5), thinkingLevel (3), includeThoughts. */
function decodeThinkingConfig(value: unknown, google: JsonRecord): ReasoningConfig | undefined {
  const config = optionalRecord(value, 'generationConfig.thinkingConfig');
  if (config === undefined) return undefined;
  const reasoning: ReasoningConfig = {};
  const budget = optionalInteger(config.thinkingBudget, 'generationConfig.thinkingConfig.thinkingBudget');
  // -1 asks for a dynamic budget: no canonical count, kept for a Gemini target.
  if (budget !== undefined && budget >= 0) reasoning.budgetTokens = budget;
  else if (budget !== undefined) google.thinkingBudget = budget;
  const include = optionalBoolean(config.includeThoughts, 'generationConfig.thinkingConfig.includeThoughts');
  if (include !== undefined) reasoning.include = include;
  const level = optionalString(config.thinkingLevel, 'generationConfig.thinkingConfig.thinkingLevel')?.toLowerCase();
  if (level !== undefined && !EFFORTS.has(level)) throw invalid('generationConfig.thinkingConfig.thinkingLevel', 'MINIMAL, LOW, MEDIUM or HIGH');
  if (level !== undefined) reasoning.effort = level as ReasoningConfig['effort'];
  return Object.keys(reasoning).length > 0 ? reasoning : undefined;
}

