// The MCP SDK is loaded on first use, not at start (src/mcp/load-sdk.ts): a real `gw serve`
// child with a module-resolution hook that writes down every package it loads answers a chat
// call without the SDK, and the first call to /mcp loads it and is answered.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';

let gw: GatewayProcess;
let loadedFile: string;

const loaded = async () => (await readFile(loadedFile, 'utf8').catch(() => '')).split('\n').filter(Boolean);

beforeAll(async () => {
  const folder = await makeHome('gw-lazy-sdk-');
  loadedFile = path.join(folder, 'loaded.txt');
  const hook = path.join(folder, 'hook.mjs');
  const register = path.join(folder, 'register.mjs');
  // Resolution happens once per module, before it loads: every package gw imports passes here.
  await writeFile(hook, `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const at = result.url.lastIndexOf('/node_modules/');
  if (at >= 0) appendFileSync(${JSON.stringify(loadedFile)}, result.url.slice(at + 14) + '\\n');
  return result;
}
`);
  await writeFile(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`);
  gw = await startGatewayProcess({ env: { NODE_OPTIONS: `--import=${pathToFileURL(register).href}` } });
}, 30_000);

afterAll(async () => {
  await gw?.stop('SIGTERM');
});

describe('the MCP SDK loads on first use', () => {
  it('is not loaded to start and serve a model call', async () => {
    const response = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${gw.bootstrapKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
    const packages = await loaded();
    // The hook saw gw's own dependencies load…
    expect(packages.some((file) => file.startsWith('fastify/'))).toBe(true);
    // …and not the SDK.
    expect(packages.filter((file) => file.startsWith('@modelcontextprotocol/'))).toEqual([]);
  });

  it('is loaded by the first call to /mcp, which is answered', async () => {
    const response = await fetch(`${gw.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.bootstrapKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"serverInfo"');
    expect((await loaded()).some((file) => file.startsWith('@modelcontextprotocol/server/dist/'))).toBe(true);
  });
});
