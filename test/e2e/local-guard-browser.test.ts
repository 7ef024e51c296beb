// The attack the local guard stops, in real headless Chromium (Debian's, through
// playwright-core): a web page on another origin opens a realtime WebSocket to a gw
// that serves credential-less calls (default_team). The handshake is refused and
// the provider never hears of it; the same page with its own gw key in the
// subprotocol is served, since it is that key's owner that pays and is audited.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGw, type GatewayProcess } from '../support/gateway-process.js';
import { GatewayJar, readAudit, waitUntil } from './helpers.js';
import { startFakeResourceProvider, type FakeResourceProvider } from './resources/fake-resource-provider.js';

const UPSTREAM_KEY = 'sk-fake-realtime-upstream-guard';
const jar = new GatewayJar();
let fake: FakeResourceProvider;
let gw: GatewayProcess;
let site: Server;
let context: BrowserContext;
let page: Page;
let profile: string;

beforeAll(async () => {
  profile = await mkdtemp(path.join(os.tmpdir(), 'gw-chromium-guard-'));
  fake = await startFakeResourceProvider(UPSTREAM_KEY);
  gw = await jar.start({ env: { OPENAI_API_KEY: UPSTREAM_KEY, OPENAI_BASE_URL: `${fake.url}/v1`, GW_LOG_LEVEL: 'warn' } });
  expect((await runGw(['settings', 'set', 'default_team', 'local'], { home: gw.home })).code).toBe(0);
  await waitUntil(async () => (await fetch(`${gw.url}/v1/models`)).status === 200, { what: 'default_team in force' });
  // Another origin: the same loopback address on another port.
  site = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>a web page</title>'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = context.pages()[0] ?? await context.newPage();
  await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
}, 60_000);

afterAll(async () => {
  await context?.close();
  await jar.stopAll();
  await fake?.close();
  await new Promise((resolve) => site?.close(resolve));
  await rm(profile, { recursive: true, force: true });
});

/** Opens a WebSocket from the page: 'open' or 'refused'. */
function openFromPage(url: string, protocols: string[]): Promise<string> {
  return page.evaluate(async ([target, offered]) => new Promise<string>((resolve) => {
    const socket = new WebSocket(target, offered);
    socket.onopen = () => { socket.close(); resolve('open'); };
    socket.onerror = () => resolve('refused');
  }), [url, protocols] as const);
}

describe('a page on another origin and the realtime WebSocket', () => {
  it.each(['/v1/realtime', '/openai/realtime'])('cannot open %s on the default team; the provider never hears of it', async (route) => {
    const before = fake.seen.length;
    expect(await openFromPage(`${gw.url.replace('http', 'ws')}${route}?model=openai/gpt-realtime`, ['realtime'])).toBe('refused');
    expect(fake.seen.length).toBe(before);
    await waitUntil(async () => (await readAudit(gw.home)).some((record) => record.kind === 'guard.refused'), { what: 'a guard.refused record' });
    const refused = (await readAudit(gw.home)).filter((record) => record.kind === 'guard.refused' || record.kind === 'guard.refused_burst');
    expect(refused[0]).toMatchObject({ origin: '127.0.0.1', data: { reasons: { 'cross-origin': 1 } } });
    expect((await readAudit(gw.home)).some((record) => record.kind === 'realtime.open')).toBe(false);
  });

  it('opens it with its own gw key in the subprotocol', async () => {
    const key = gw.bootstrapKey!;
    expect(await openFromPage(`${gw.url.replace('http', 'ws')}/v1/realtime?model=openai/gpt-realtime`, ['realtime', `openai-insecure-api-key.${key}`])).toBe('open');
    await waitUntil(async () => (await readAudit(gw.home)).some((record) => record.kind === 'realtime.open'), { what: 'a realtime.open record' });
    expect((await readAudit(gw.home)).find((record) => record.kind === 'realtime.open')).toMatchObject({ team: 'local', key_id: expect.stringMatching(/^vk_/) });
  });
});
