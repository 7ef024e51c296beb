// Responses `tools` and `tool_choice` → canonical. Function tools cross as they are.
// Codex also sends `namespace` tools (functions grouped under a name): they are flattened
// into function tools named `<namespace>__<name>` (the separator MCP tool names already
// use), their descriptions kept in extensions.openai.namespaces so that this dialect's
// encoder can regroup them. Built-in tools (web_search, file_search…) only OpenAI runs:
// kept in extensions.openai.tools, dropped with `dropped:tool:<type>` by other targets.
// `custom` tools (free-form input) become one-string-argument functions (custom-tools.ts).
// https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
import type { TranslationWarning } from '../../canonical/codec.js';
import type { ToolChoice, ToolDefinition } from '../../canonical/tools.js';
import { decodeCustomTool } from './custom-tools.js';
import { NAMESPACE_SEPARATOR } from './decode-input.js';
import { invalid, optionalArray, optionalBoolean, optionalRecord, optionalString, requireRecord, type JsonRecord } from '../shared/json-guards.js';

export function decodeTools(value: unknown, openai: JsonRecord, warnings: TranslationWarning[]): ToolDefinition[] {
  const definitions: ToolDefinition[] = [];
  const builtIn: JsonRecord[] = [];
  const namespaces: JsonRecord[] = [];
  const custom: string[] = [];
  optionalArray(value, 'tools').forEach((item, index) => {
    const param = `tools[${index}]`;
    const tool = requireRecord(item, param);
    const type = optionalString(tool.type, `${param}.type`);
    if (type === 'function') definitions.push(decodeFunctionTool(tool, param, ''));
    else if (type === 'custom') {
      const definition = decodeCustomTool(tool, param);
      definitions.push(definition);
      custom.push(definition.name);
      warnings.push({ code: 'mapped:tool:custom', detail: `${definition.name} → a function with one string argument` });
    } else if (type === 'namespace') {
      const name = optionalString(tool.name, `${param}.name`);
      if (name === undefined) throw invalid(`${param}.name`, 'a string');
      namespaces.push({ name, description: optionalString(tool.description, `${param}.description`) ?? '' });
      warnings.push({ code: 'mapped:tool:namespace', detail: `${name}.* → ${name}${NAMESPACE_SEPARATOR}*` });
      optionalArray(tool.tools, `${param}.tools`).forEach((member, memberIndex) => {
        const memberParam = `${param}.tools[${memberIndex}]`;
        const record = requireRecord(member, memberParam);
        if (record.type === 'function') definitions.push(decodeFunctionTool(record, memberParam, `${name}${NAMESPACE_SEPARATOR}`));
        else warnings.push({ code: `dropped:tool:${String(record.type)}`, detail: `in namespace ${name}` });
      });
    } else builtIn.push(tool);
  });
  if (builtIn.length > 0) openai.tools = builtIn;
  if (namespaces.length > 0) openai.namespaces = namespaces;
  if (custom.length > 0) openai.custom_tools = custom;
  return definitions;
}

function decodeFunctionTool(tool: JsonRecord, param: string, prefix: string): ToolDefinition {
  const name = optionalString(tool.name, `${param}.name`);
  if (name === undefined || name === '') throw invalid(`${param}.name`, 'a non-empty string');
  const description = optionalString(tool.description, `${param}.description`);
  const parameters = optionalRecord(tool.parameters, `${param}.parameters`) ?? { type: 'object', properties: {} };
  const strict = optionalBoolean(tool.strict, `${param}.strict`);
  return {
    type: 'function', name: `${prefix}${name}`, ...(description === undefined ? {} : { description }), parameters,
    ...(strict === undefined ? {} : { strict }),
  };
}

/** https://platform.openai.com/docs/api-reference/responses/create#responses-create-tool_choice */
export function decodeToolChoice(value: unknown, openai: JsonRecord, warnings: TranslationWarning[]): ToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return { type: value };
  const choice = optionalRecord(value, 'tool_choice');
  if (choice === undefined) throw invalid('tool_choice', "'auto', 'none', 'required' or an object");
  if (choice.type === 'function' || choice.type === 'custom') {
    const name = optionalString(choice.name, 'tool_choice.name');
    if (name === undefined) throw invalid('tool_choice.name', 'a string');
    return { type: 'tool', name };
  }
  if (choice.type === 'allowed_tools') {
    warnings.push({ code: 'mapped:tool_choice.allowed_tools' });
    return { type: choice.mode === 'required' ? 'required' : 'auto' };
  }
  // A built-in tool forced by type (web_search…) only OpenAI can honour.
  openai.tool_choice = choice;
  return { type: 'required' };
}
