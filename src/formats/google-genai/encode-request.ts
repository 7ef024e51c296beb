// Canonical → a GenAI generateContent body (the model goes in the URL path, not here).
// https://ai.google.dev/api/generate-content#request-body
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest, Message } from '../../canonical/request.js';
import type { ToolChoice, ToolDefinition } from '../../canonical/tools.js';
import { cleanJsonSchemaForGemini } from './clean-json-schema.js';
import { encodeGenerationConfig } from './encode-generation-config.js';
import { encodeModelParts, encodeToolResults, encodeUserParts } from './encode-parts.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';

export function encodeGoogleRequest(request: CanonicalRequest): Decoded<Record<string, unknown>> {
  const warnings: TranslationWarning[] = [];
  const google = request.extensions.google ?? {};
  const body: JsonRecord = { contents: encodeContents(request.messages, warnings) };
  if (request.system.length > 0) {
    if (request.system.some((part) => part.cacheControl !== undefined)) warnings.push({ code: 'dropped:cache_control' });
    body.systemInstruction = { parts: request.system.map((part) => ({ text: part.text })) };
  }
  const tools = encodeTools(request.tools ?? [], google, warnings);
  if (tools.length > 0) body.tools = tools;
  const toolConfig = encodeToolConfig(request.toolChoice, google);
  if (toolConfig !== undefined) body.toolConfig = toolConfig;
  const generationConfig = encodeGenerationConfig(request, google, warnings);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  if (google.safetySettings !== undefined) body.safetySettings = google.safetySettings;
  if (google.cachedContent !== undefined) body.cachedContent = google.cachedContent;
  if (request.user !== undefined) warnings.push({ code: 'dropped:user' });
  // Gemini has no switch for parallel calls (https://ai.google.dev/gemini-api/docs/function-calling#parallel_function_calling).
  if (request.parallelToolCalls === false) warnings.push({ code: 'dropped:parallel_tool_calls' });
  warnForeignExtensions(request.extensions, warnings);
  return { value: body, warnings };
}

/** Function results and user text share Gemini's user turn; parallel results must sit in one turn. */
function encodeContents(messages: Message[], warnings: TranslationWarning[]): JsonRecord[] {
  const callNames = new Map<string, string>();
  const contents: Array<{ role: string; parts: JsonRecord[]; tool: boolean }> = [];
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const part of message.content) if (part.type === 'tool-call') callNames.set(part.id, part.name);
      contents.push({ role: 'model', parts: encodeModelParts(message.content, warnings), tool: false });
      continue;
    }
    const tool = message.role === 'tool';
    const parts = tool ? encodeToolResults(message.content, callNames, warnings) : encodeUserParts(message.content, warnings);
    const last = contents.at(-1);
    if (last !== undefined && last.role === 'user' && (tool || last.tool)) {
      last.parts.push(...parts);
      last.tool = tool;
    } else {
      contents.push({ role: 'user', parts, tool });
    }
  }
  return contents.map(({ role, parts }) => ({ role, parts }));
}

function encodeTools(tools: ToolDefinition[], google: JsonRecord, warnings: TranslationWarning[]): JsonRecord[] {
  const output: JsonRecord[] = [];
  if (tools.length > 0) output.push({ functionDeclarations: tools.map((tool) => encodeFunctionDeclaration(tool, warnings)) });
  if (Array.isArray(google.tools)) output.push(...google.tools.filter(isPlainObject));
  return output;
}

function encodeFunctionDeclaration(tool: ToolDefinition, warnings: TranslationWarning[]): JsonRecord {
  const declaration: JsonRecord = { name: tool.name };
  if (tool.description !== undefined) declaration.description = tool.description;
  if (tool.strict === true) warnings.push({ code: 'dropped:tool.strict' });
  const parameters = cleanJsonSchemaForGemini(tool.parameters, warnings);
  // Gemini rejects an OBJECT schema with no properties ("should be non-empty"): omit it instead.
  const empty = parameters.type === 'object' && (!isPlainObject(parameters.properties) || Object.keys(parameters.properties).length === 0);
  if (!empty) declaration.parameters = parameters;
  return declaration;
}

function encodeToolConfig(choice: ToolChoice | undefined, google: JsonRecord): JsonRecord | undefined {
  const rest = isPlainObject(google.toolConfig) ? google.toolConfig : {};
  if (choice === undefined) return Object.keys(rest).length > 0 ? rest : undefined;
  const names = Array.isArray(google.allowedFunctionNames) ? { allowedFunctionNames: google.allowedFunctionNames } : {};
  let calling: JsonRecord;
  if (choice.type === 'none') calling = { mode: 'NONE' };
  else if (choice.type === 'required') calling = { mode: 'ANY', ...names };
  else if (choice.type === 'tool') calling = { mode: 'ANY', allowedFunctionNames: [choice.name] };
  else calling = { mode: typeof google.functionCallingMode === 'string' ? google.functionCallingMode : 'AUTO', ...names };
  return { ...rest, functionCallingConfig: calling };
}

/** Another dialect's extensions cannot cross: each key is one warning (built-in tools name the tool). */
function warnForeignExtensions(extensions: CanonicalRequest['extensions'], warnings: TranslationWarning[]): void {
  for (const [dialect, fields] of Object.entries(extensions)) {
    if (dialect === 'google') continue;
    for (const [key, value] of Object.entries(fields)) {
      if (key === 'tools' && Array.isArray(value)) {
        for (const tool of value) warnings.push({ code: `dropped:tool:${isPlainObject(tool) && typeof tool.type === 'string' ? tool.type : 'unknown'}` });
      } else {
        warnings.push({ code: `dropped:${dialect}.${key}` });
      }
    }
  }
}
