// Every console page at a laptop's 1280 pixels (issue 30): the sign-in page, then each entry of
// the navigation as the console lists it at run time (so a page added later is walked too), with
// a few calls on the trail so tables have rows. On each: nothing scrolls sideways or sticks out,
// and no short label (button, header, form label) breaks over lines; a screenshot of each page
// (layout-<page>.png) goes to test-results/console/ (docs/console/ under `npm run docs:screenshots`,
// where git ignores them: each page's owner takes the pictures the documentation shows).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutProblems, openConsoleBrowser, openPage, signIn, type ConsoleBrowser } from '../../support/console-browser.js';
import { waitUntil } from '../helpers.js';
import { TEAM, runChecked, startHubRig, type HubRig } from '../device-login/support.js';

let rig: HubRig;
let browser: ConsoleBrowser;
let adminToken: string;

/** `Device logins` → `device-logins`: the screenshot's file name. */
function fileName(label: string): string {
  return label.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

beforeAll(async () => {
  rig = await startHubRig({ prepare: (home) => runChecked(['prices', 'set', 'mock/echo', '--input', '3', '--output', '15'], home).then(() => undefined) });
  const [admin, key] = await Promise.all([
    runChecked(['admin', 'tokens', 'create', '--name', 'ops@example.com'], rig.hub.home),
    runChecked(['keys', 'create', '--team', TEAM, '--name', 'layout-check'], rig.hub.home),
  ]);
  adminToken = admin.trim();
  const secret = key.trim().split('\n').at(-1)!.trim();
  const chat = () => fetch(`${rig.hub.url}/v1/chat/completions`, {
    method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'a row for the tables' }] }),
  });
  await waitUntil(async () => (await chat()).status === 200, { what: 'the hub to read the new key' });
  await waitUntil(async () => (await fetch(`${rig.hub.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${adminToken}` } })).status === 200, { what: 'the hub to read the admin token' });
  browser = await openConsoleBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

describe('the console at 1280 pixels', () => {
  it('the sign-in page fits, its token label on one line', async () => {
    await browser.page.goto(`${rig.hub.url}/ui`);
    await browser.page.getByLabel(/Admin token/).waitFor();
    await browser.shot('sign-in');
    expect(await layoutProblems(browser.page)).toEqual([]);
  });

  it('every page of the navigation fits, with no label broken over lines', async () => {
    await signIn(browser.page, rig.hub.url, adminToken);
    const labels = (await browser.page.getByRole('navigation', { name: 'Console pages' }).getByRole('button').allTextContents()).map((label) => label.trim());
    expect(labels.length).toBeGreaterThanOrEqual(8);
    const found: Record<string, unknown[]> = {};
    for (const label of labels) {
      await openPage(browser.page, label);
      await browser.page.getByRole('button', { name: label, exact: true }).and(browser.page.locator('[aria-current="page"]')).waitFor();
      // A page loads its data after it shows: wait until no request is in flight.
      await browser.page.waitForLoadState('networkidle');
      await browser.shot(`layout-${fileName(label)}`);
      const problems = await layoutProblems(browser.page);
      if (problems.length > 0) found[label] = problems;
    }
    expect(found).toEqual({});
  }, 120_000);
});
