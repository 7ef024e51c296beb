// A password inside a provider's base URL (`https://user:password@host`) is
// shown as `***` by every command that prints the URL: `gw providers add`,
// `list`, `list --json` and `test`, for providers from state.json and from the
// environment alike. Run through the real `gw` binary.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw } from '../support/gateway-process.js';

const servers: Array<{ close(): void }> = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function startModelList(): Promise<number> {
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('URL credentials in provider listings', () => {
  it('masks the password in providers add, list, list --json and test', async () => {
    const home = await makeHome();
    const port = await startModelList();
    const added = await runGw(['providers', 'add', 'proxy', '--kind', 'openai-compatible', '--base-url', `http://alice:CANARY-state@127.0.0.1:${port}/v1`], { home });
    expect(added.code).toBe(0);
    expect(added.stdout).toBe(`added provider proxy (openai-compatible, http://alice:***@127.0.0.1:${port}/v1, key none)\nproxy takes proxy/MODEL only\n`);

    const env = { OPENAI_BASE_URL: 'https://bob:CANARY-env@openai-proxy.example/v1' };
    const table = await runGw(['providers', 'list'], { home, env });
    const json = await runGw(['providers', 'list', '--json'], { home, env });
    const tested = await runGw(['providers', 'test', 'proxy'], { home });
    for (const result of [added, table, json, tested]) {
      expect(`${result.stdout}${result.stderr}`).not.toContain('CANARY');
    }
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^proxy\\s+openai-compatible\\s+http://alice:\\*\\*\\*@127\\.0\\.0\\.1:${port}/v1\\s`, 'm'));
    const rows = JSON.parse(json.stdout) as Array<{ name: string; base_url: string }>;
    expect(rows.find((row) => row.name === 'proxy')?.base_url).toBe(`http://alice:***@127.0.0.1:${port}/v1`);
    expect(rows.find((row) => row.name === 'openai')?.base_url).toBe('https://bob:***@openai-proxy.example/v1');
    expect(tested.stdout).toContain(`http://alice:***@127.0.0.1:${port}/v1/models`);
  });
});
