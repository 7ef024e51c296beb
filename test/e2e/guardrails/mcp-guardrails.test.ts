// MCP tool calls pass the same guardrails (docs/guardrails.md): a real `gw serve` fronting the
// notes server (stdio, official SDK) and a local HTTP guardrail (guardrail-server.ts), called with
// the official MCP client. The arguments are judged before the tool runs (pre: a rewrite is what the
// tool gets, a block never reaches it), the result before the agent gets it (post).
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { readAudit, waitForState, waitUntil, type AuditLine } from '../helpers.js';
import { startGuardrailServer, type GuardrailServer } from './guardrail-server.js';

const NOTES_SCRIPT = path.resolve(import.meta.dirname, '../../support/mcp-servers/notes-server.mjs');

let gw: GatewayProcess;
let guard: GuardrailServer;
let client: Client;

beforeAll(async () => {
  guard = await startGuardrailServer();
  gw = await startGatewayProcess({ env: { GW_LOG_LEVEL: 'warn' } });
  const home = { home: gw.home };
  expect((await runGw(['mcp', 'add', 'notes', '--command', `${process.execPath} ${NOTES_SCRIPT} stdio local`], home)).code).toBe(0);
  const added = await runGw(['guardrails', 'add', 'mcp-judge', '--kind', 'http', '--url', guard.url, '--when', 'both'], home);
  expect(added.code, added.stderr).toBe(0);
  await waitForState(gw);
  client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${gw.bootstrapKey!}` } } }));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await gw?.stop();
  await guard?.close();
});

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = Array.isArray(result.content) ? result.content as Array<{ type: string; text?: string }> : [];
  return content.map((part) => part.text ?? '').join('');
}

async function toolRecords(): Promise<AuditLine[]> {
  return (await readAudit(gw.home)).filter((line) => (line.data as { mcp?: { method?: string } } | undefined)?.mcp?.method === 'tools/call');
}

it('a rewrite of the arguments is what the tool gets; the result is judged too', async () => {
  const before = guard.received.length;
  const result = await client.callTool({ name: 'notes__echo', arguments: { text: 'hello Alice Example' } });
  expect(textOf(result)).not.toContain('Alice');
  expect(textOf(result)).toContain('[PERSON]');
  const seen = guard.received.slice(before);
  expect(seen.map((request) => request.phase)).toEqual(['pre', 'post']);
  expect(seen[0]!.texts).toEqual([{ place: '/text', text: 'hello Alice Example' }]);
  expect(seen[0]!.operation).toBe('mcp.tools/call');
});

it('a block never reaches the tool: an MCP error naming the guardrail; the record says so, never the text', async () => {
  await expect(client.callTool({ name: 'notes__echo', arguments: { text: 'the forbidden-topic' } })).rejects.toThrow(/guardrail "mcp-judge": off-topic for this team/);
  let records: AuditLine[] = [];
  await waitUntil(async () => {
    records = (await toolRecords()).filter((line) => Array.isArray(line.outcome) && line.outcome.includes('GW_ERR_GUARDRAIL_BLOCKED'));
    return records.length === 1;
  }, { what: 'the blocked tool call\'s record' });
  const guardrails = (records[0]!.data as { guardrails?: unknown[] }).guardrails;
  expect(guardrails).toEqual([expect.objectContaining({ guardrail: 'mcp-judge', phase: 'pre', verdict: 'block' })]);
  expect(JSON.stringify(records[0])).not.toContain('forbidden-topic');
});
