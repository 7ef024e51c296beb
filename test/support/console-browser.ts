// The console in real headless Chromium, for every console test: launch a browser with its own
// profile, sign in with an admin token, take a screenshot, and check a page's layout the way a
// person at a 1280-pixel screen would see it. Screenshots go to test-results/console/ unless
// GW_CONSOLE_SHOTS names another folder (`npm run docs:screenshots` points it at docs/console/).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = {
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

/** The width the layout check holds every page to: a laptop screen. */
export const LAYOUT_WIDTH = 1280;

const SHOTS = path.resolve(process.env.GW_CONSOLE_SHOTS ?? path.resolve(import.meta.dirname, '../../test-results/console'));

export interface ConsoleBrowser {
  context: BrowserContext;
  page: Page;
  /** Writes <name>.png of the whole page. */
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

/** `timezoneId`: the browser's time zone (an IANA name), for pages that show days; the machine's when absent. */
export async function openConsoleBrowser(options: { timezoneId?: string } = {}): Promise<ConsoleBrowser> {
  await mkdir(SHOTS, { recursive: true });
  const profile = await mkdtemp(path.join(os.tmpdir(), 'gw-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { ...CHROMIUM, locale: 'en-US', viewport: { width: LAYOUT_WIDTH, height: 900 }, ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}) });
  const page = context.pages()[0] ?? await context.newPage();
  // A locator that finds nothing fails the step, naming it, well before the test's own time-out.
  page.setDefaultTimeout(10_000);
  return {
    context, page,
    shot: async (name) => { await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true }); },
    close: async () => { await context.close(); await rm(profile, { recursive: true, force: true }); },
  };
}

/** Signs in at <hubUrl>/ui with an admin token and waits for the console's header. */
export async function signIn(page: Page, hubUrl: string, adminToken: string): Promise<void> {
  await page.goto(`${hubUrl}/ui`);
  await page.getByLabel(/Admin token/).fill(adminToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(/Signed in as /).waitFor();
}

/** Opens a console page by its navigation label ("Budgets", "Keys", …). */
export async function openPage(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console pages' }).getByRole('button', { name: label, exact: true }).click();
}

export interface LayoutProblem { element: string; problem: string }

/**
 * What a person would see as broken at this width: the page scrolls sideways, an element sticks
 * out of the viewport, or a short label (a button, a table header, a form label, a nav entry)
 * breaks over more than one line although it would fit on one.
 */
export async function layoutProblems(page: Page): Promise<LayoutProblem[]> {
  return page.evaluate(() => {
    const problems: Array<{ element: string; problem: string }> = [];
    const name = (element: Element): string => `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) problems.push({ element: 'page', problem: `scrolls sideways: ${document.documentElement.scrollWidth}px wide at ${width}px` });
    for (const element of document.querySelectorAll('main *')) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.right > width + 1) problems.push({ element: name(element), problem: `overflows the viewport (right edge ${Math.round(box.right)}px)` });
    }
    for (const element of document.querySelectorAll('button, th, label, nav a, .button, h1, h2, h3')) {
      const text = (element.textContent ?? '').trim();
      // Long text may wrap; a label that fits on a 1280-pixel line (80 characters) must not.
      if (text.length === 0 || text.length > 80) continue;
      // The lines its own words sit on (a form control inside a label may sit on a line of its own).
      const tops = new Set<number>();
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        if ((node.textContent ?? '').trim() === '' || node.parentElement?.closest('select, option, textarea')) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(rect.top);
      }
      // Words a few pixels apart (a <code> beside plain text) are on one line; a new line is a line-height down.
      const sorted = [...tops].sort((a, b) => a - b);
      const lines = sorted.filter((top, index) => index === 0 || top - sorted[index - 1]! > 8).length;
      if (lines > 1) problems.push({ element: name(element), problem: `breaks over ${lines} lines` });
    }
    return problems;
  });
}

/** Answers the console's confirm step (before anything irreversible) by pressing its named button. */
export async function confirmStep(page: Page, action: string): Promise<void> {
  await page.getByRole('alertdialog').getByRole('button', { name: action, exact: true }).click();
}
