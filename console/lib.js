// What every console page shares: the admin API call (with the session's CSRF value on changes),
// a loader hook, the error line, and money in dollars. Pages live in pages/, one file each.
import { html, useEffect, useState } from '/ui/vendor/preact-htm.js';

let csrf = '';

/** The CSRF value of this console session (from whoami), sent with every change. */
export function setCsrf(value) { csrf = value ?? ''; }

export async function api(method, path, body) {
  const response = await fetch(path, {
    method, credentials: 'same-origin',
    headers: { ...(method === 'GET' ? {} : { 'x-gw-csrf': csrf }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(json?.error?.message ?? `HTTP ${response.status}`), { status: response.status });
  return json;
}

export function useLoad(path, deps = []) {
  const [state, setState] = useState({ data: null, error: null });
  // A null path loads nothing (a page part that is not for this console).
  const reload = () => path === null ? undefined : api('GET', path).then((data) => setState({ data, error: null }), (error) => setState({ data: null, error: error.message }));
  useEffect(() => { reload(); }, deps);
  return [state, reload];
}

export function Problem({ error }) {
  return error ? html`<p class="error" role="alert">${error}</p>` : null;
}

/** Nano-USD to dollars, to the micro-dollar: a cheap call still shows. */
export const usd = (nanos) => (nanos / 1e9).toFixed(6);

/**
 * Runs a gw command on the hub (the remote CLI's POST /admin/api/commands): a form refuses what
 * the CLI refuses, with the CLI's own message. Resolves to { exit_code, stdout, stderr }.
 */
export function runCommand(argv) { return api('POST', '/admin/api/commands', { argv }); }

/**
 * A read command's --json answer (["budgets", "list"] runs `gw budgets list --json` on the hub),
 * parsed; a refusal throws the CLI's own message.
 */
export async function commandJson(argv) {
  const run = await runCommand([...argv, '--json']);
  if (run.exit_code !== 0) throw new Error((run.stderr || run.stdout || `exit ${run.exit_code}`).trim());
  return JSON.parse(run.stdout);
}

/** What a command printed: its output when it went through, its message (as an alert) when refused. */
export function CommandOutput({ run }) {
  if (!run) return null;
  if (run.error) return html`<p class="error" role="alert">${run.error}</p>`;
  const text = (run.exit_code === 0 ? run.stdout : run.stderr || run.stdout).trim();
  return run.exit_code === 0
    ? html`<pre class="ok" role="status">${text || 'Done.'}</pre>`
    : html`<p class="error" role="alert">${text}</p>`;
}
