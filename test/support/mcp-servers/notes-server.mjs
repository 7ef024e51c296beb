// A real MCP server built with the official SDK, for the MCP gateway tests: run as a stdio
// child by gw (`node notes-server.mjs`), or served over streamable HTTP by the test
// (createNotesServer). Tools: echo, contact (a result holding an email), slow (progress
// notifications, their messages naming an email), crash (the process exits); a resource and a prompt. As a stdio child it
// writes its pid to NOTES_PID_FILE when given, so a test can tell whether it still runs.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

export function createNotesServer(label) {
  const server = new McpServer({ name: `notes-${label}`, version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text: `${label} echo: ${text}` }] }));
  server.registerTool('contact', { description: 'Who to ask', inputSchema: {} },
    async () => ({ content: [{ type: 'text', text: 'ask ada.lovelace@example.com about it' }] }));
  server.registerTool('slow', { description: 'Reports progress, then answers', inputSchema: { steps: z.number() } },
    async ({ steps }, extra) => {
      const token = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step += 1) {
        // The message carries an email: what reaches the agent outside a result passes DLP too.
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, total: steps, message: `step ${step}, ask ada.lovelace@example.com` } });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { content: [{ type: 'text', text: `done after ${steps} steps` }] };
    });
  server.registerTool('crash', { description: 'Ends the server process', inputSchema: {} }, async () => {
    setTimeout(() => process.exit(3), 10);
    return { content: [{ type: 'text', text: 'crashing' }] };
  });
  server.registerResource('readme', 'notes://readme', { description: 'The notes', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, text: `${label} readme text` }] }));
  server.registerPrompt('review', { description: 'A review prompt', argsSchema: { topic: z.string() } },
    ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review ${topic}` } }] }));
  return server;
}

if (process.argv[2] === 'stdio') {
  if (process.env.NOTES_PID_FILE) (await import('node:fs')).writeFileSync(process.env.NOTES_PID_FILE, String(process.pid));
  await createNotesServer(process.argv[3] ?? 'stdio').connect(new StdioServerTransport());
}
