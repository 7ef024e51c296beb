// The Sessions page on a laptop sidecar's read-only console (issue 29, lineage), in real headless
// Chromium: a person logs in to a real hub (`gw login`, approved by an admin), their sidecar
// (`gw serve`) serves two calls naming one session the way Claude Code and Codex send it, and the
// sidecar's console, like the hub's, lists the session and shows its timeline, from the Sessions
// page and from a request's session link; it still offers nothing that changes state.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeHome } from '../../support/gateway-process.js';
import { layoutProblems, openConsoleBrowser, openPage, type ConsoleBrowser } from '../../support/console-browser.js';
import { NO_KEYCHAIN, PERSON, runChecked, startHubRig, startLogin, type HubRig } from '../device-login/support.js';
import type { GatewayProcess } from '../../support/gateway-process.js';

const SESSION = '5b2e7c1a-0d3f-4a8b-9e6c-2f1a0b3c4d5e';
let rig: HubRig;
let sidecar: GatewayProcess;
let browser: ConsoleBrowser;

async function chat(headers: Record<string, string>): Promise<void> {
  const response = await fetch(`${sidecar.url}/v1/chat/completions`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'from the laptop' }] }),
  });
  expect(response.status, await response.text()).toBe(200);
}

beforeAll(async () => {
  rig = await startHubRig();
  const adminToken = (await runChecked(['admin', 'tokens', 'create', '--name', 'ops@example.com'], rig.hub.home)).trim();
  const laptop = await makeHome('gw-sidecar-sessions-');
  const login = startLogin(rig.hub.url, laptop, NO_KEYCHAIN);
  const code = await login.code;
  const approved = await fetch(`${rig.hub.url}/admin/api/devices/${code}/approve`, {
    method: 'POST', headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ person: PERSON }),
  });
  expect(approved.status, await approved.text()).toBe(200);
  expect(await login.exited).toBe(0);
  sidecar = await rig.jar.start({ home: laptop, env: { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'warn' } });
  // One session, as Claude Code names it (its own header) and as Codex configured for gw names it (x-gw-session); one call with none.
  await chat({ 'x-claude-code-session-id': SESSION, 'user-agent': 'claude-cli/2.1.197 (external, sdk-cli)' });
  await chat({ 'x-gw-session': SESSION, 'user-agent': 'codex_exec/0.169.0 (Ubuntu 24.4.0; x86_64) xterm (codex_exec; 0.169.0)' });
  await chat({});
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

it('lists the person\'s sessions and opens one\'s timeline, read-only', async () => {
  const { page } = browser;
  await page.goto(`${sidecar.url}/ui`);
  await page.getByText(`Your own requests on this laptop: ${PERSON} (read-only)`).waitFor();
  expect(await page.getByRole('navigation').getByRole('button').allTextContents()).toEqual(['Requests', 'Sessions', 'Usage', 'Audit']);
  await openPage(page, 'Sessions');
  const list = page.locator('table.sessions');
  // The records are written as each call ends: the list may need a moment.
  await expect.poll(async () => {
    await openPage(page, 'Requests');
    await openPage(page, 'Sessions');
    return list.getByRole('button', { name: SESSION }).count();
  }, { timeout: 15_000 }).toBe(1);
  const rows = await list.locator('tbody tr').allInnerTexts();
  expect(rows).toHaveLength(1);
  const cells = rows[0]!.split('\t').map((cell) => cell.trim());
  expect(cells[1]).toContain(PERSON);
  expect(cells[2]).toBe('claude-code/2.1.197, codex/0.169.0');
  expect(cells[4]).toBe('2');
  await list.getByRole('button', { name: SESSION }).click();
  const timeline = page.getByRole('region', { name: `Session ${SESSION}` });
  await timeline.locator('tr.session-call').first().waitFor();
  expect(await timeline.locator('tr.session-call').count()).toBe(2);
  expect(await timeline.locator('svg.session-bar rect.session-model').count()).toBe(2);
  expect(await layoutProblems(page)).toEqual([]);
  await browser.shot('sidecar-sessions');
  // The sidecar answers the session routes from its own trail, without any token; an unknown session is a 404.
  expect((await fetch(`${sidecar.url}/admin/api/sessions/run-nobody-made`)).status).toBe(404);
  expect((await fetch(`${sidecar.url}/admin/api/people`)).status).toBe(404);
}, 60_000);

it('follows a request\'s session link to the timeline', async () => {
  const { page } = browser;
  await page.goto(`${sidecar.url}/ui#requests`);
  await page.getByRole('heading', { name: 'Requests' }).waitFor();
  const sessions = await (await fetch(`${sidecar.url}/admin/api/sessions/${SESSION}`)).json() as { calls: Array<{ request_id: string }> };
  const id = sessions.calls[0]!.request_id;
  await page.getByRole('button', { name: `Open request ${id}`, exact: true }).click();
  await page.getByRole('region', { name: `Request ${id}` }).getByRole('link', { name: SESSION }).click();
  await page.getByRole('region', { name: `Session ${SESSION}` }).locator('tr.session-call').first().waitFor();
  expect(page.url()).toContain(`#sessions/${SESSION}`);
}, 60_000);
