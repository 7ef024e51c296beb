// A listing loses only what matched (issue 36, docs/mcp-governance.md): a real `gw serve` in front
// of two MCP servers built with the official SDK, `leaky` (streamable HTTP, here) whose listings
// carry a secret in some items (a tool's description, a tool's input schema, a prompt argument's
// description, a resource's name, a template's description) and an address in one tool's
// description, and `notes` (stdio), clean. Through /mcp with the official client: each item a
// block rule matches is left out, the item a redact rule matches is listed redacted, every other
// item of both servers stays; the record names each rule and place (with the item's name when
// the name holds no match); neither the answers, the trail nor the log holds the secret.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { SAMPLES } from '../../dlp/samples.js';
import { readAudit, sleep, type AuditLine } from '../helpers.js';

const SECRET = SAMPLES.githubPat;
const ADDRESS = SAMPLES.email;
const NOTES_SCRIPT = path.resolve(import.meta.dirname, '../../support/mcp-servers/notes-server.mjs');

function buildLeaky(): McpServer {
  const mcp = new McpServer({ name: 'leaky', version: '1.0.0' });
  const answer = async () => ({ content: [{ type: 'text' as const, text: 'ok' }] });
  mcp.registerTool('status', { description: 'Says how the build is', inputSchema: {} }, answer);
  mcp.registerTool('deploy', { description: `Deploys with the token ${SECRET}`, inputSchema: {} }, answer);
  mcp.registerTool('lookup', { description: 'Looks a thing up', inputSchema: { query: z.string().describe(`use ${SECRET} as the key`) } }, answer);
  mcp.registerTool('contact', { description: `Mails ${ADDRESS} for access`, inputSchema: {} }, answer);
  mcp.registerPrompt('review', { description: 'A review', argsSchema: { topic: z.string() } }, ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: topic } }] }));
  mcp.registerPrompt('leaky_prompt', { description: 'Another', argsSchema: { topic: z.string().describe(`token ${SECRET}`) } }, ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: topic } }] }));
  mcp.registerResource('readme', 'file:///leaky/readme.txt', { description: 'The readme' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'readme' }] }));
  mcp.registerResource(`named ${SECRET}`, 'file:///leaky/named.txt', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'named' }] }));
  mcp.registerResource('page', new ResourceTemplate('file:///leaky/pages/{name}', { list: undefined }), { description: 'A page' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'page' }] }));
  mcp.registerResource('secret_page', new ResourceTemplate('file:///leaky/secret/{name}', { list: undefined }), { description: `with ${SECRET}` }, async (uri) => ({ contents: [{ uri: uri.href, text: 'page' }] }));
  return mcp;
}

let leaky: http.Server;
let gw: GatewayProcess;
let client: Client;

beforeAll(async () => {
  leaky = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void (async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const mcp = buildLeaky();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on('close', () => { void transport.close(); void mcp.close(); });
      await mcp.connect(transport);
      await transport.handleRequest(request, response, text ? JSON.parse(text) as unknown : undefined);
    })());
  });
  await new Promise<void>((resolve) => leaky.listen(0, '127.0.0.1', resolve));
  gw = await startGatewayProcess({ env: { GW_LOG_LEVEL: 'debug' } });
  const home = { home: gw.home };
  expect((await runGw(['mcp', 'add', 'leaky', '--url', `http://127.0.0.1:${(leaky.address() as AddressInfo).port}/mcp`], home)).code).toBe(0);
  expect((await runGw(['mcp', 'add', 'notes', '--command', `${process.execPath} ${NOTES_SCRIPT} stdio local`], home)).code).toBe(0);
  const redact = await runGw(['dlp', 'set', 'email', 'redact'], home);
  expect(redact.code, redact.stderr).toBe(0);
  await sleep(1000);
  client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${gw.bootstrapKey!}` } } }));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await gw?.stop();
  await new Promise((resolve) => { leaky?.closeAllConnections(); leaky?.close(resolve); });
});

interface McpData { method: string; status: string; dlp_withheld?: Array<{ rule: string; place: string; name?: string }> }

/** The latest record of a listing method. */
async function recordOf(method: string): Promise<{ record: AuditLine; mcp: McpData }> {
  for (let tries = 0; tries < 50; tries += 1) {
    const record = (await readAudit(gw.home)).findLast((line) => (line.data as { mcp?: McpData } | undefined)?.mcp?.method === method);
    if (record) return { record, mcp: (record.data as { mcp: McpData }).mcp };
    await sleep(100);
  }
  throw new Error(`no record of ${method}`);
}

it('tools/list: the tools a block rule matches are left out, the redacted one listed, every other tool of both servers stays', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name).sort();
  expect(names).toEqual(['leaky__contact', 'leaky__status', 'notes__contact', 'notes__crash', 'notes__echo', 'notes__slow']);
  expect(tools.find((tool) => tool.name === 'leaky__contact')!.description).toBe('Mails [REDACTED:email] for access');
  expect(JSON.stringify(tools)).not.toContain(SECRET);
  expect(JSON.stringify(tools)).not.toContain(ADDRESS);
  const { record, mcp } = await recordOf('tools/list');
  expect(record.status).toBe(200);
  expect(mcp.status).toBe('ok');
  expect(mcp.dlp_withheld).toEqual(expect.arrayContaining([
    { rule: 'github_token', place: expect.stringMatching(/^result\.tools\[\d+\]\.description$/), name: 'leaky__deploy' },
    { rule: 'github_token', place: expect.stringMatching(/^result\.tools\[\d+\]\.inputSchema\b/), name: 'leaky__lookup' },
  ]));
  expect(mcp.dlp_withheld).toHaveLength(2);
  expect(record.warnings).toEqual(expect.arrayContaining(['dlp_withheld_mcp_items: github_token', 'dlp_redacted_mcp_result: 1']));
  // A tool still listed is still called as before.
  expect((await client.callTool({ name: 'leaky__status', arguments: {} })).content).toEqual([{ type: 'text', text: 'ok' }]);
});

it('prompts/list: the prompt whose argument carries the secret is left out, the others stay', async () => {
  const { prompts } = await client.listPrompts();
  expect(prompts.map((prompt) => prompt.name).sort()).toEqual(['leaky__review', 'notes__review']);
  const { mcp } = await recordOf('prompts/list');
  expect(mcp).toMatchObject({ status: 'ok', dlp_withheld: [{ rule: 'github_token', place: expect.stringMatching(/^result\.prompts\[\d+\]\.arguments/), name: 'leaky__leaky_prompt' }] });
});

it('resources/list: the resource whose name is the match is left out and recorded without its name', async () => {
  const { resources } = await client.listResources();
  expect(resources.map((resource) => resource.name).sort()).toEqual(['readme', 'readme']);
  const { mcp } = await recordOf('resources/list');
  expect(mcp).toMatchObject({ status: 'ok', dlp_withheld: [{ rule: 'github_token', place: expect.stringMatching(/^result\.resources\[\d+\]\.name$/) }] });
  expect(mcp.dlp_withheld![0]).not.toHaveProperty('name');
});

it('resources/templates/list: the template whose description carries the secret is left out', async () => {
  const { resourceTemplates } = await client.listResourceTemplates();
  expect(resourceTemplates.map((template) => template.name)).toEqual(['page']);
  const { mcp } = await recordOf('resources/templates/list');
  expect(mcp).toMatchObject({ status: 'ok', dlp_withheld: [{ rule: 'github_token', place: expect.stringMatching(/^result\.resourceTemplates\[\d+\]\.description$/), name: 'secret_page' }] });
});

it('nothing gw wrote holds the secret or the address: not the trail, not its log', async () => {
  await sleep(300);
  const trail = await readFile(path.join(gw.home, 'audit', 'audit.jsonl'), 'utf8');
  expect(trail).toContain('dlp_withheld');
  for (const text of [trail, gw.stdout(), gw.stderr()]) {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(ADDRESS);
  }
});
