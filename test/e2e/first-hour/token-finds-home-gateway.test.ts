// `gw token` finds the gw serve that holds its home, on whatever port it listens, with no
// GW_URL: gw serve records its address in the home (issue 40, deliverable 1). A home whose
// audit lock a live gateway holds never gets a second gw serve started on it (it would die
// on the lock); gw token says which process holds it instead. A real `gw serve` and the real CLI.
import { access, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayJar } from '../helpers.js';
import { runGw, type GatewayProcess } from '../../support/gateway-process.js';

const jar = new GatewayJar();
let gateway: GatewayProcess;
beforeAll(async () => { gateway = await jar.start(); }, 60_000);
afterAll(async () => { await jar.stopAll(); });

async function exists(file: string): Promise<boolean> {
  return access(file).then(() => true, () => false);
}

describe('gw token and the gateway that holds the home', () => {
  it('finds it on a non-default port with no GW_URL, and its key is accepted there', async () => {
    const token = await runGw(['token', '--home', gateway.home]);
    expect(token.code, token.stderr).toBe(0);
    expect(token.stderr).toBe('');
    const key = token.stdout.trim();
    expect(key).toMatch(/^sk-gw-/);
    const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(answer.status).toBe(200);
    expect(await exists(path.join(gateway.home, 'serve.log'))).toBe(false);
  }, 30_000);

  it('never starts a second gw serve on a home whose audit lock a live gateway holds', async () => {
    // As a gateway of an older gw, which recorded no address: only its lock says the home is held.
    await rm(path.join(gateway.home, 'serve.json'), { force: true });
    const token = await runGw(['token', '--home', gateway.home], { env: { GW_URL: 'http://127.0.0.1:9' } });
    expect(token.code).toBe(1);
    expect(token.stderr).toContain(`gw serve (pid ${gateway.child.pid}) holds ${gateway.home}`);
    expect(token.stdout).toBe('');
    expect(await exists(path.join(gateway.home, 'serve.log'))).toBe(false);
  }, 30_000);

  it('forgets the address when it stops', async () => {
    const other = await jar.start();
    expect(await exists(path.join(other.home, 'serve.json'))).toBe(true);
    expect(await other.stop('SIGTERM')).toBe(0);
    expect(await exists(path.join(other.home, 'serve.json'))).toBe(false);
  }, 30_000);
});
