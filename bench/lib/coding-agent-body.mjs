// A request shaped like Claude Code's, for the DLP bench and the large-body scenarios: 24 tools with
// JSON-schema parameters, a long system prompt, and long tool results (whole source files), as
// coding agents resend every turn. Deterministic; no secrets (one e-mail address for the PII rules).

function sourceFile(index) {
  const lines = [];
  for (let line = 0; line < 60; line += 1) {
    lines.push(`  const value${line} = compute(${index * 100 + line}, "item-${line}") + offset; // adjust for the ${line}th entry, see docs/notes.md`);
  }
  return `import { compute } from './math.js';\nexport function handler${index}(offset: number) {\n${lines.join('\n')}\n  return value0;\n}\n`;
}

function tool(index) {
  return {
    name: `tool_${index}`,
    description: `Tool number ${index}: reads, edits or searches files in the workspace. Use it when the user asks for ${index} things; never for secrets.`,
    input_schema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The absolute path to the file to read or modify' },
        pattern: { type: 'string', description: 'A regular expression to search for in file contents' },
        limit: { type: 'number', description: 'The number of lines to read; only provide if the file is too large' },
      },
      required: ['path'],
    },
  };
}

/** `nonAscii`: an em dash in the system prompt and an arrow in each tool result; `targetBytes`: about this large. */
export function claudeCodeBody(nonAscii = false, targetBytes = 200 * 1024) {
  const messages = [{ role: 'user', content: [{ type: 'text', text: 'Refactor the handlers so the offsets are computed once; contact me at dev.person@example.com if unsure.' }] }];
  for (let turn = 0; JSON.stringify(messages).length < targetBytes - 20_000; turn += 1) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${turn}`, name: 'tool_1', input: { path: `/repo/src/handler${turn}.ts` } }] });
    const result = nonAscii ? `${sourceFile(turn)}// → handler${turn} done\n` : sourceFile(turn);
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}`, content: [{ type: 'text', text: result }] }] });
  }
  const intro = nonAscii ? 'You are Claude Code — an interactive CLI tool. ' : '';
  return {
    model: 'claude-sonnet-4-5', max_tokens: 32000, stream: true,
    system: [{ type: 'text', text: intro + 'You are Claude Code, an interactive CLI tool. '.repeat(200) }],
    tools: Array.from({ length: 24 }, (_unused, index) => tool(index)),
    messages,
  };
}
