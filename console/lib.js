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

/** The address's hash as [page, rest] (`#teams/eng` → ['teams', 'eng']), followed as it changes. */
export function useHashPath() {
  const read = () => { const [page = '', ...rest] = location.hash.slice(1).split('/'); return [page, decodeURIComponent(rest.join('/'))]; };
  const [path, setPath] = useState(read());
  useEffect(() => {
    const follow = () => setPath(read());
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return path;
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
  if (run.exit_code !== 0) throw new Error(run.message ?? (run.stderr || run.stdout || `exit ${run.exit_code}`).trim());
  return JSON.parse(run.stdout);
}

/** A read command's --json answer, as useLoad gives an API answer; a refusal shows the CLI's message. */
export function useCommandJson(argv, deps = []) {
  return useLoader(() => commandJson(argv), deps);
}

/** How `gw dlp test`, `gw policy test` and `gw budgets test` say a call would be refused. */
const REFUSAL = /^refused\b|would be (blocked|refused)|^\s*blocked\b/m;

/**
 * What a command printed: its output when it went through (with the notes it wrote to stderr,
 * such as a takeover warning), its message as an alert when refused. `label` names the region.
 */
export function CommandOutput({ run, label }) {
  if (!run) return null;
  if (run.error) return html`<p class="error" role="alert" aria-label=${label}>${run.error}</p>`;
  // `message`: the hub's wording of a refused field (Amount must be …), else the CLI's own text.
  if (run.exit_code !== 0) return html`<p class="error" role="alert" aria-label=${label}>${run.message ?? (run.stderr || run.stdout).trim()}</p>`;
  const notes = run.stderr.trim();
  // A test command that went through may answer that a call would be refused (dlp test, policy test): not green.
  const refused = REFUSAL.test(run.stdout);
  return html`<div role="status" aria-label=${label}><pre class=${refused ? 'error' : 'ok'} data-outcome=${refused ? 'refused' : 'ok'}>${run.stdout.trim() || 'Done.'}</pre>${notes && html`<pre class="warn">${notes}</pre>`}</div>`;
}

/**
 * A confirm step before anything irreversible (issue 40): `ask({ title, detail, action, run })`
 * shows what will be destroyed and runs `run` only when its named button is pressed. Render the
 * returned box where the page shows its messages.
 */
export function useConfirm() {
  const [pending, setPending] = useState(null);
  const confirm = async () => { const { run } = pending; setPending(null); await run(); };
  const box = pending && html`<div class="card confirm" role="alertdialog" aria-label=${pending.title}>
    <p><strong>${pending.title}?</strong> ${pending.detail} This cannot be undone.</p>
    <button class="danger" onClick=${confirm}>${pending.action}</button> <button onClick=${() => setPending(null)}>Cancel</button></div>`;
  return [setPending, box];
}

/** Why this sign-in may not make a hub-wide change (prices, settings), or null: said before the hub is asked. */
export function adminOnly(admin, what) {
  if (admin.role === 'admin' || admin.role === undefined) return null;
  return `Only an admin changes ${what}: you are ${admin.role === 'viewer' ? 'a viewer (read-only)' : `a team admin of ${admin.teams.join(', ')}`}.`;
}
