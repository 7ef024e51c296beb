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

/** `load()`'s answer as { data, error }, loaded again when deps change or on reload(); a null `load` loads nothing. */
function useLoader(load, deps) {
  const [state, setState] = useState({ data: null, error: null });
  const reload = () => load === null ? undefined : load().then((data) => setState({ data, error: null }), (error) => setState({ data: null, error: error.message }));
  useEffect(() => { reload(); }, deps);
  return [state, reload];
}

/** An admin API GET; a null path loads nothing (a page part that is not for this console). */
export function useLoad(path, deps = []) {
  return useLoader(path === null ? null : () => api('GET', path), deps);
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

/** A read command's --json answer, as useLoad gives an API answer; a refusal shows the CLI's message. */
export function useCommandJson(argv, deps = []) {
  return useLoader(() => commandJson(argv), deps);
}

/**
 * What a command printed: its output when it went through (with the notes it wrote to stderr,
 * such as a takeover warning), its message as an alert when refused. `label` names the region.
 */
export function CommandOutput({ run, label }) {
  if (!run) return null;
  if (run.error) return html`<p class="error" role="alert" aria-label=${label}>${run.error}</p>`;
  if (run.exit_code !== 0) return html`<p class="error" role="alert" aria-label=${label}>${(run.stderr || run.stdout).trim()}</p>`;
  const notes = run.stderr.trim();
  return html`<div role="status" aria-label=${label}><pre class="ok">${run.stdout.trim() || 'Done.'}</pre>${notes && html`<pre class="warn">${notes}</pre>`}</div>`;
}
