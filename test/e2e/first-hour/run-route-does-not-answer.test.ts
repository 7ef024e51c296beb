// `gw run claude --model gpt-5` where gpt-5 routes to a provider that does not answer
// (a `--kind openai` vLLM that is not running): gw run says so, naming the provider
// and its URL, instead of launching the tool into 90 s of silent retries (issue 30,
// deliverable 5). A real gateway; the "installed" claude is a script that records that
// it ran, as in run-finds-coding-tools.test.ts. With no model named, the tool's own default
// (Claude Code's claude-opus-4-8) must route here, or gw run says what to pass or add (issue 40).
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GatewayJar } from '../helpers.js';
import { makeHome, runGw } from '../../support/gateway-process.js';

const jar = new GatewayJar();
afterAll(async () => { await jar.stopAll(); });

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('gw run and a route that does not answer', () => {
  it('names the provider and its URL and does not launch the tool', async () => {
    const home = await makeHome();
    const port = await closedPort();
    const added = await runGw(['providers', 'add', 'vllm', '--kind', 'openai', '--base-url', `http://127.0.0.1:${port}/v1`, '--takes', 'gpt-*'], { home });
    expect(added.code, added.stderr).toBe(0);
    const gateway = await jar.start({ home });
    const tools = await makeHome('gw-coding-tools-');
    const bin = path.join(tools, 'node_modules', '.bin');
    await mkdir(bin, { recursive: true });
    const ran = path.join(tools, 'ran');
    await writeFile(path.join(bin, 'claude'), `#!/bin/sh\n: > '${ran}'\n`);
    await chmod(path.join(bin, 'claude'), 0o755);
    const started = Date.now();
    const run = await runGw(['run', 'claude', '--model', 'gpt-5', '-p', 'hi'], {
      env: { GW_HOME: home, GW_URL: gateway.url, GW_CODING_TOOLS_DIR: tools, PATH: await makeHome('gw-empty-path-') },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`gpt-5 routes to provider vllm (http://127.0.0.1:${port}/v1), which does not answer`);
    expect(Date.now() - started).toBeLessThan(20_000);
    await expect(stat(ran)).rejects.toThrow();
    // No model named: Claude Code would ask for its own default, which no provider here serves.
    const unnamed = await runGw(['run', 'claude', '-p', 'hi'], {
      env: { GW_HOME: home, GW_URL: gateway.url, GW_CODING_TOOLS_DIR: tools, PATH: await makeHome('gw-empty-path-') },
    });
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toContain('Claude Code asks for its own default model (claude-opus-4-8)');
    expect(unnamed.stderr).toContain('gw providers add NAME --kind anthropic');
    expect(unnamed.stderr).toMatch(/name a model it serves: gw run claude --model \S+/);
    await expect(stat(ran)).rejects.toThrow();
    // A route that answers (the mock) launches the tool as before.
    const fine = await runGw(['run', 'claude', '--model', 'mock/echo', '-p', 'hi'], {
      env: { GW_HOME: home, GW_URL: gateway.url, GW_CODING_TOOLS_DIR: tools, PATH: await makeHome('gw-empty-path-') },
    });
    expect(fine.code, fine.stderr).toBe(0);
    expect((await stat(ran)).isFile()).toBe(true);
  }, 60_000);
});
