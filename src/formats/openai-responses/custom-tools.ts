// Codex's `custom` tools (free-form input, e.g. apply_patch with a Lark grammar) exist
// only in OpenAI's dialects. To another provider they cross as a function tool with one
// string argument, `input`, whose description carries the grammar so the model knows
// the format; the names are kept in extensions.openai.custom_tools so that the answer to
// the Responses client comes back as `custom_tool_call` {input}, which Codex dispatches.
// https://platform.openai.com/docs/guides/function-calling#custom-tools
import type { CanonicalRequest } from '../../canonical/request.js';
import type { ToolDefinition } from '../../canonical/tools.js';
import { invalid, optionalRecord, optionalString, type JsonRecord } from '../shared/json-guards.js';

const CUSTOM_INPUT_FIELD = 'input';

export function decodeCustomTool(tool: JsonRecord, param: string): ToolDefinition {
  const name = optionalString(tool.name, `${param}.name`);
  if (name === undefined || name === '') throw invalid(`${param}.name`, 'a non-empty string');
  const description = optionalString(tool.description, `${param}.description`);
  return {
    type: 'function', name,
    ...(description === undefined ? {} : { description }),
    parameters: {
      type: 'object',
      properties: { [CUSTOM_INPUT_FIELD]: { type: 'string', description: describeFormat(optionalRecord(tool.format, `${param}.format`)) } },
      required: [CUSTOM_INPUT_FIELD],
    },
  };
}

/** A grammar travels as text in the argument's description: other providers cannot constrain by it. */
function describeFormat(format: JsonRecord | undefined): string {
  if (format?.type === 'grammar' && typeof format.definition === 'string') {
    const syntax = typeof format.syntax === 'string' ? format.syntax : 'grammar';
    return `The raw free-form input, with no JSON quoting of its own. It must match this ${syntax} grammar:\n${format.definition}`;
  }
  return 'The raw free-form input, as plain text.';
}

/** The custom tools the client declared (decode-tools.ts keeps their names). */
export function declaredCustomTools(request: CanonicalRequest | undefined): Set<string> {
  const list = request?.extensions.openai?.custom_tools;
  return new Set(Array.isArray(list) ? list.map(String) : []);
}

/** A custom call's free-form input as the canonical arguments of a one-field function call. */
export function customArguments(input: string): string {
  return JSON.stringify({ [CUSTOM_INPUT_FIELD]: input });
}

/** The free-form input back out of the function arguments a provider produced; the raw text if they are not that shape. */
export function customInput(argumentsJson: string): string {
  try {
    const value: unknown = JSON.parse(argumentsJson);
    if (typeof value === 'object' && value !== null && typeof (value as JsonRecord)[CUSTOM_INPUT_FIELD] === 'string') return (value as JsonRecord)[CUSTOM_INPUT_FIELD] as string;
  } catch {
    // not JSON: the model answered free-form already
  }
  return argumentsJson;
}
