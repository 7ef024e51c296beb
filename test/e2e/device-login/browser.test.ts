// The verification page in real headless Chromium (Debian's, through
// playwright-core): code entry (prefilled from verification_uri_complete), a wrong
// code, what is being approved (IP, user agent, time), approval by the hub admin,
// denial, the wrong-code limit, an OpenID Connect approval against a real
// oidc-provider server, and a page on another origin POSTing to the sidecar.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Provider from 'oidc-provider';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, type GatewayProcess } from '../../support/gateway-process.js';
import { sleep, takeApprovedToken, waitForState } from '../helpers.js';
import { NO_KEYCHAIN, PERSON, runChecked, startHubRig, startLogin, type HubRig } from './support.js';

const OIDC_SECRET = 'oidc-client-secret-for-tests-0005';
const WRONG_CODE = 'That code is not valid';
let rig: HubRig;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let profile: string;

beforeAll(async () => {
  profile = await mkdtemp(path.join(os.tmpdir(), 'gw-chromium-'));
  const [started, launched] = await Promise.all([
    startHubRig({ env: { GW_OIDC_SECRET: OIDC_SECRET } }),
    chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium', headless: true,
      // A zone with a half-hour offset, so the page's local time cannot pass for UTC; the copy button needs the clipboard.
      locale: 'en-US', timezoneId: 'Asia/Kolkata', permissions: ['clipboard-read', 'clipboard-write'],
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    }),
  ]);
  rig = started;
  context = launched;
  browser = context.browser()!;
  page = context.pages()[0] ?? await context.newPage();
}, 60_000);

afterAll(async () => {
  await context?.close();
  await rig?.close();
  await rm(profile, { recursive: true, force: true });
});

async function startCode(userAgent = 'gw-cli/0.1.0 (test laptop)'): Promise<{ device_code: string; user_code: string; verification_uri_complete: string }> {
  const response = await fetch(`${rig.hub.url}/oauth/device/code`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent }, body: 'client_id=gw-cli&client_host=test-laptop',
  });
  return response.json() as Promise<{ device_code: string; user_code: string; verification_uri_complete: string }>;
}

async function submitCode(code: string): Promise<void> {
  await page.fill('input[name=user_code]', code);
  await page.click('button:has-text("Continue")');
}

describe('the verification page in Chromium', () => {
  let token = '';

  it('refuses a wrong code, shows who asked for the right one, and the hub admin approves the claimed login', async () => {
    void browser;
    const started = await startCode();
    await page.goto(`${rig.hub.url}/device`);
    await submitCode('BCDF-GHJK');
    expect(await page.textContent('[role=alert]')).toContain(WRONG_CODE);
    await submitCode(started.user_code.toLowerCase().replace('-', ' '));
    expect(await page.textContent('[data-testid=code]')).toBe(started.user_code);
    expect(await page.textContent('[data-testid=ip]')).toBe('127.0.0.1');
    expect(await page.textContent('[data-testid=user-agent]')).toBe('gw-cli/0.1.0 (test laptop)');
    // The request time in the reader's zone (the page's nonce'd script ran under the CSP), the exact instant kept in datetime.
    const requestedAt = await page.getAttribute('[data-testid=requested-at]', 'datetime');
    expect(Math.abs(Date.parse(requestedAt!) - Date.now())).toBeLessThan(60_000);
    const shown = await page.textContent('[data-testid=requested-at]');
    expect(shown).toContain('GMT+5:30');
    expect(shown).not.toContain('UTC');
    await page.fill('input[name=email]', PERSON);
    await page.click('button:has-text("This was me")');
    const command = `gw device approve ${started.user_code} --person ${PERSON}`;
    expect(await page.textContent('[role=status]')).toContain(command);
    // One unwrapped line in a <pre><code> block, and the copy button puts exactly it on the clipboard.
    expect(await page.textContent('pre > code[data-testid=approve-command]')).toBe(command);
    expect(await page.$eval('pre', (element) => getComputedStyle(element).whiteSpace)).toBe('pre');
    await page.click('button:has-text("Copy command")');
    await page.waitForSelector('button[data-copy]:text-is("Copied")', { timeout: 5_000 });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
    const listed = JSON.parse(await runChecked(['device', 'list', '--json'], rig.hub.home)) as Array<{ code: string; claimed_email: string }>;
    expect(listed.find((entry) => entry.code === started.user_code)?.claimed_email).toBe(PERSON);
    await runChecked(['device', 'approve', started.user_code, '--person', PERSON], rig.hub.home);
    await waitForState(rig.hub);
    const issued = await takeApprovedToken(rig.hub.url, started.device_code);
    expect(issued.person).toBe(PERSON);
    token = String(issued.access_token);
  }, 30_000);

  it('prefills the code from verification_uri_complete, and a denial stops the login', async () => {
    const started = await startCode();
    await page.goto(started.verification_uri_complete);
    expect(await page.inputValue('input[name=user_code]')).toBe(started.user_code);
    await page.click('button:has-text("Continue")');
    await page.click('button:has-text("This was not me")');
    expect(await page.textContent('[role=status]')).toContain('Denied');
    expect((await takeApprovedToken(rig.hub.url, started.device_code, 1)).error).toBe('access_denied');
  }, 20_000);

  it('refuses a POST from a page on another origin to the sidecar (and the provider never hears of it)', async () => {
    const jar = rig.jar;
    const sidecar: GatewayProcess = await jar.start({ home: await makeHome('gw-laptop-'), env: { GW_TOKEN: token, GW_HUB: rig.hub.url, GW_LOG_LEVEL: 'warn' } });
    expect(sidecar.stdout()).toContain('sidecar mode');
    expect(sidecar.stdout()).toContain('token from GW_TOKEN');
    const before = rig.fakes.openai.requests.length;
    // Any http page on another origin will do; the hub's own pages forbid scripts from fetching (CSP).
    await page.goto(`${rig.fakes.gemini.url}/a-web-page`);
    const answered = page.waitForResponse((response) => response.url().startsWith(sidecar.url));
    await page.evaluate(async (url) => {
      await fetch(`${url}/v1/chat/completions`, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'from a web page' }] }) });
    }, sidecar.url);
    expect((await answered).status()).toBe(403);
    expect(rig.fakes.openai.requests.length).toBe(before);
    const direct = await fetch(`${sidecar.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'from a tool' }] }) });
    expect(direct.status).toBe(200);
  }, 30_000);
});

describe('approval through OpenID Connect', () => {
  let idp: Server;
  afterAll(() => new Promise<void>((resolve) => { idp?.closeAllConnections(); idp?.close(() => resolve()); }));

  it('signs the person in at a real oidc-provider and approves the login for their email', async () => {
    idp = createServer();
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    const provider = new Provider(issuer, {
      clients: [{
        client_id: 'gw-hub', client_secret: OIDC_SECRET, redirect_uris: [`${rig.hub.url}/device/oidc/callback`],
        grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic',
      }],
      findAccount: async (_context, id) => ({ accountId: id, claims: async () => ({ sub: id, email: id, email_verified: true }) }),
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      cookies: { keys: ['gw-test-cookie-key'] },
      features: { devInteractions: { enabled: true } },
    });
    idp.on('request', provider.callback());
    for (const [name, value] of [['oidc_issuer', issuer], ['oidc_client_id', 'gw-hub'], ['oidc_client_secret', 'env:GW_OIDC_SECRET'], ['public_url', rig.hub.url]]) {
      await runChecked(['settings', 'set', name!, value!], rig.hub.home);
    }
    await sleep(600);
    const login = startLogin(rig.hub.url, await makeHome('gw-laptop-'), NO_KEYCHAIN);
    const code = await login.code;
    const fresh = await browser.newContext();
    const tab = await fresh.newPage();
    await tab.goto(`${rig.hub.url}/device?user_code=${code}`);
    await tab.click('button:has-text("Continue")');
    await tab.click('button:has-text("Sign in with")');
    await tab.fill('input[name=login]', PERSON);
    await tab.fill('input[name=password]', 'any password');
    await tab.click('button:has-text("Sign-in")');
    await tab.click('button:has-text("Continue")');
    await tab.waitForURL(/\/device\/oidc\/callback/);
    expect(await tab.textContent('[role=status]')).toContain(`Signed in as ${PERSON}`);
    expect(await login.exited).toBe(0);
    expect(login.stderr()).toContain(`as ${PERSON} (team eng)`);
    const listed = JSON.parse(await runChecked(['device', 'list', '--json'], rig.hub.home)) as Array<{ code: string; approved_by: string }>;
    expect(listed.find((entry) => entry.code === code)?.approved_by).toBe(`oidc:${issuer}`);
    await fresh.close();
  }, 40_000);
});

// Last: it uses up this address's wrong-code allowance for the rest of the window.
describe('the wrong-code limit', () => {
  it('limits wrong codes per address, with the same text for unknown codes until then', async () => {
    await page.goto(`${rig.hub.url}/device`);
    // One wrong code was tried in the first test; four more use up the five.
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await submitCode('BCDF-GHJK');
      expect(await page.textContent('[role=alert]')).toContain(WRONG_CODE);
    }
    await submitCode('BCDF-GHJK');
    expect(await page.textContent('[role=status]')).toContain('Too many wrong codes');
  }, 20_000);
});
