// Canonical → a Responses API create body. gw keeps no server-side state, so unless the
// client chose otherwise it asks for store:false and encrypted reasoning to carry back.
// https://platform.openai.com/docs/api-reference/responses/create
import type { Decoded, TranslationWarning } from '../../canonical/codec.js';
import type { CanonicalRequest, ReasoningConfig } from '../../canonical/request.js';
import type { ToolChoice, ToolDefinition } from '../../canonical/tools.js';
import { OPENAI_ONLY } from './decode-request.js';
import { encodeInput, splitName } from './encode-input.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';

export function encodeResponsesRequest(request: CanonicalRequest): Decoded<Record<string, unknown>> {
  const warnings: TranslationWarning[] = [];
  const openai = request.extensions.openai ?? {};
  const namespaceList = Array.isArray(openai.namespaces) ? openai.namespaces.filter(isPlainObject) : [];
  const namespaces = new Set(namespaceList.map((namespace) => String(namespace.name)));
  const body: JsonRecord = { model: request.model };
  const system = encodeSystem(request, warnings);
  body.input = [...system.items, ...encodeInput(request.messages, namespaces, warnings)];
  if (system.instructions !== undefined) body.instructions = system.instructions;
  const clientTools: unknown[] = Array.isArray(openai.tools) ? openai.tools : [];
  const tools = [...encodeTools(request.tools ?? [], namespaceList, namespaces), ...clientTools];
  if (tools.length > 0) body.tools = tools;
  const toolChoice = isPlainObject(openai.tool_choice) ? openai.tool_choice : encodeToolChoice(request.toolChoice);
  if (toolChoice !== undefined) body.tool_choice = toolChoice;
  if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) warnings.push({ code: 'dropped:top_k' });
  if (request.stopSequences !== undefined) warnings.push({ code: 'dropped:stop_sequences' });
  if (request.user !== undefined) body.user = request.user;
  const text = encodeText(request, openai);
  if (text !== undefined) body.text = text;
  const reasoning = encodeReasoning(request.reasoning, openai, warnings);
  if (reasoning !== undefined) body.reasoning = reasoning;
  if (request.stream) body.stream = true;
  applyExtensions(request, body, warnings);
  return { value: body, warnings };
}

/** One system part is `instructions`; several keep their boundaries as one developer message. */
function encodeSystem(request: CanonicalRequest, warnings: TranslationWarning[]): { instructions?: string; items: JsonRecord[] } {
  if (request.system.some((part) => part.cacheControl !== undefined)) warnings.push({ code: 'dropped:cache_control' });
  if (request.system.length === 0) return { items: [] };
  if (request.system.length === 1) return { instructions: request.system[0]!.text, items: [] };
  return { items: [{ type: 'message', role: 'developer', content: request.system.map((part) => ({ type: 'input_text', text: part.text })) }] };
}

function encodeTools(tools: ToolDefinition[], namespaceList: JsonRecord[], namespaces: Set<string>): JsonRecord[] {
  const output: JsonRecord[] = [];
  const groups = new Map<string, JsonRecord[]>();
  for (const tool of tools) {
    const { name, namespace } = splitName(tool.name, namespaces);
    const encoded: JsonRecord = { type: 'function', name, ...(tool.description === undefined ? {} : { description: tool.description }), parameters: tool.parameters };
    if (tool.strict !== undefined) encoded.strict = tool.strict;
    if (namespace === undefined) {
      output.push(encoded);
      continue;
    }
    let members = groups.get(namespace);
    if (members === undefined) {
      members = [];
      groups.set(namespace, members);
      const description = namespaceList.find((entry) => entry.name === namespace)?.description ?? '';
      output.push({ type: 'namespace', name: namespace, description, tools: members });
    }
    members.push(encoded);
  }
  return output;
}

function encodeToolChoice(choice: ToolChoice | undefined): unknown {
  if (choice === undefined) return undefined;
  if (choice.type === 'tool') return { type: 'function', name: choice.name };
  return choice.type;
}

function encodeText(request: CanonicalRequest, openai: JsonRecord): JsonRecord | undefined {
  const text: JsonRecord = {};
  const format = request.responseFormat;
  if (format?.type === 'text') text.format = { type: 'text' };
  else if (format?.type === 'json') text.format = { type: 'json_object' };
  else if (format?.type === 'json-schema') {
    text.format = { type: 'json_schema', name: format.name, schema: format.schema, ...(format.strict === undefined ? {} : { strict: format.strict }) };
  }
  if (openai.verbosity !== undefined) text.verbosity = openai.verbosity;
  return Object.keys(text).length > 0 ? text : undefined;
}

/** Budgets (Anthropic, Gemini) have no Responses form: the nearest effort stands in. */
function encodeReasoning(reasoning: ReasoningConfig | undefined, openai: JsonRecord, warnings: TranslationWarning[]): JsonRecord | undefined {
  const output: JsonRecord = {};
  if (typeof openai.reasoning_effort === 'string') output.effort = openai.reasoning_effort;
  if (reasoning?.effort !== undefined) output.effort = reasoning.effort === 'max' ? 'xhigh' : reasoning.effort;
  else if (reasoning?.budgetTokens !== undefined) {
    const budget = reasoning.budgetTokens;
    output.effort = budget === 0 ? 'minimal' : budget <= 2048 ? 'low' : budget <= 16384 ? 'medium' : 'high';
    warnings.push({ code: 'mapped:reasoning.budget_tokens', detail: `effort ${String(output.effort)}` });
  }
  if (reasoning?.include === true) output.summary = typeof openai.reasoning_summary === 'string' ? openai.reasoning_summary : 'auto';
  return Object.keys(output).length > 0 ? output : undefined;
}

/** OpenAI-only fields go through; other dialects' extensions are dropped, one warning per key. */
function applyExtensions(request: CanonicalRequest, body: JsonRecord, warnings: TranslationWarning[]): void {
  const handled = new Set(['tools', 'namespaces', 'tool_choice', 'verbosity', 'reasoning_effort', 'reasoning_summary']);
  for (const [dialect, fields] of Object.entries(request.extensions)) {
    for (const [key, value] of Object.entries(fields)) {
      if (dialect === 'openai' && OPENAI_ONLY.includes(key)) body[key] = value;
      else if (dialect === 'openai' && handled.has(key)) continue;
      else if (key === 'tools' && Array.isArray(value)) {
        for (const tool of value) warnings.push({ code: `dropped:tool:${isPlainObject(tool) ? Object.keys(tool)[0] ?? 'unknown' : 'unknown'}` });
      } else warnings.push({ code: `dropped:${dialect}.${key}` });
    }
  }
  // Stateless by default: nothing stored upstream, reasoning carried in the conversation instead.
  if (body.store === undefined && request.extensions.openai?.store === undefined && request.reasoning !== undefined) {
    body.store = false;
    body.include = ['reasoning.encrypted_content'];
  }
}
