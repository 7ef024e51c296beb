// Issue 14, item 6, through real `gw` processes: what a person meets setting up a
// hub and logging in from a laptop. A login to an unreachable hub names the
// cause; a bad log level is refused plainly; the hub's banner says it is a hub
// and gives the gw login line; device-login polls are not counted as errors.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { makeHome, runGw } from '../../support/gateway-process.js';
import { GatewayJar } from '../helpers.js';

const jar = new GatewayJar();
const homes: string[] = [];
afterAll(async () => {
  await jar.stopAll();
  await Promise.all(homes.map((home) => rm(home, { recursive: true, force: true })));
});

async function home(): Promise<string> {
  const made = await makeHome('gw-laptop-');
  homes.push(made);
  return made;
}

/** A port nothing listens on: bound once to learn a free one, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/gw-test-bus' };

describe('gw login to a hub it cannot reach', () => {
  it('names the network cause and the hub URL, not just "fetch failed"', async () => {
    const port = await closedPort();
    const result = await runGw(['login', '--hub', `http://127.0.0.1:${port}`, '--no-browser'], { home: await home(), env: NO_KEYCHAIN });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`http://127.0.0.1:${port}`);
    expect(result.stderr).toMatch(/connection refused.*\[ECONNREFUSED\]/);
    expect(result.stderr).not.toContain('fetch failed');
  });

  it('says why port 1 (a port fetch blocks) cannot work', async () => {
    const result = await runGw(['login', '--hub', 'http://127.0.0.1:1', '--no-browser'], { home: await home(), env: NO_KEYCHAIN });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('http://127.0.0.1:1');
    expect(result.stderr).toContain('refuses that port');
  });
});

describe('an invalid log level', () => {
  it('is refused with exit 2 and the valid levels, from --log-level and from GW_LOG_LEVEL', async () => {
    const flag = await runGw(['serve', '--port', '0', '--log-level', 'verbose'], { home: await home() });
    expect(flag.code).toBe(2);
    expect(flag.stderr.trim()).toBe('gw: invalid --log-level "verbose": use one of fatal, error, warn, info, debug, trace, silent');
    const env = await runGw(['serve', '--port', '0'], { home: await home(), env: { GW_LOG_LEVEL: 'loud' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('invalid GW_LOG_LEVEL "loud": use one of fatal, error, warn, info, debug, trace, silent');
    expect(`${flag.stderr}${env.stderr}`).not.toMatch(/custom levels/);
  });
});

describe('a hub', () => {
  it('says it is a hub and prints the gw login line: the listening URL, or public_url when set', async () => {
    const hub = await jar.start({ home: await home(), args: ['--standalone'] });
    expect(hub.stdout()).toMatch(/^gw serve: hub, standalone mode, listening on /);
    expect(hub.stdout()).toContain(`gw login --hub ${hub.url}\n`);

    const published = await home();
    const set = await runGw(['settings', 'set', 'public_url', 'https://gw.example.com'], { home: published });
    expect(set.code).toBe(0);
    const behindProxy = await jar.start({ home: published, args: ['--standalone'] });
    expect(behindProxy.stdout()).toContain('gw login --hub https://gw.example.com\n');
    expect(behindProxy.stdout()).not.toContain(`gw login --hub ${behindProxy.url}`);
  });

  it('with device login off is not announced as a hub', async () => {
    const plain = await home();
    expect((await runGw(['settings', 'set', 'device_login', 'off'], { home: plain })).code).toBe(0);
    const gateway = await jar.start({ home: plain, args: ['--standalone'] });
    expect(gateway.stdout()).toMatch(/^gw serve: standalone mode, listening on /);
    expect(gateway.stdout()).not.toContain('gw login --hub');
  });

  it('counts authorization_pending and slow_down polls apart from 4xx errors in its metrics', async () => {
    const hub = await jar.start({ home: await home(), args: ['--standalone'], env: { GW_LOG_LEVEL: 'warn' } });
    const post = (path: string, form: Record<string, string>) => fetch(`${hub.url}${path}`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form),
    });
    const started = await (await post('/oauth/device/code', { client_id: 'gw-cli' })).json() as { device_code: string };
    const poll = async () => (await (await post('/oauth/token', {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: started.device_code, client_id: 'gw-cli',
    })).json() as { error: string }).error;
    // The first poll is pending; one right after it is too fast.
    expect([await poll(), await poll()]).toEqual(['authorization_pending', 'slow_down']);
    // A real error on the same endpoint still counts as a 4xx.
    expect((await (await post('/oauth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: 'unknown' })).json() as { error: string }).error).toBe('invalid_grant');

    const metrics = await (await fetch(`${hub.url}/metrics`)).text();
    const count = (statusClass: string) => Number(new RegExp(`^gw_requests_total\\{family="operational",operation="hub\\.token",status_class="${statusClass}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
    expect(count('polling')).toBe(2);
    expect(count('4xx')).toBe(1);
  });
});
