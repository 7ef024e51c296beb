// The verification page's HTML: plain server-rendered forms that work in any
// browser. Two pages add one small inline script, allowed by its nonce under a
// strict Content-Security-Policy: it shows the request time in the reader's own
// time zone and makes the copy button work. Without it the time reads in UTC
// and the command can still be selected by hand.
import { formatUserCode } from '../state/device-codes.js';
import type { DeviceCodeRecord } from '../state/schema.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Rewrites each <time datetime> in local time with its zone, and wires [data-copy] buttons to the clipboard. */
const PAGE_SCRIPT = `for (const t of document.querySelectorAll('time[datetime]')) {
  const d = new Date(t.dateTime);
  if (!Number.isNaN(d.getTime())) t.textContent = d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'long' });
}
for (const b of document.querySelectorAll('button[data-copy]')) {
  const source = document.getElementById(b.dataset.copy);
  b.hidden = false;
  b.addEventListener('click', () => {
    const done = () => { b.textContent = 'Copied'; };
    const select = () => { const range = document.createRange(); range.selectNodeContents(source); getSelection().removeAllRanges(); getSelection().addRange(range); b.textContent = 'Press Ctrl+C (or ⌘C) to copy'; };
    if (navigator.clipboard) navigator.clipboard.writeText(source.textContent).then(done, select); else select();
  });
}`;

function page(title: string, body: string, scriptNonce: string | null = null): string {
  const script = scriptNonce === null ? '' : `<script nonce="${escapeHtml(scriptNonce)}">${PAGE_SCRIPT}</script>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · gw</title><style>body{font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}
input{font:inherit;padding:.4rem}button{font:inherit;padding:.4rem 1rem;margin:.3rem .3rem 0 0}.error{color:#a00}.code{font:1.6rem monospace;letter-spacing:.1em}
dt{font-weight:600}dd{margin:0 0 .5rem 0}pre{background:#f3f3f3;padding:.6rem;overflow-x:auto;white-space:pre}</style></head><body><h1>${escapeHtml(title)}</h1>${body}${script}</body></html>`;
}

/** The UTC text a reader without script sees; the script replaces it with their local time. */
function utcText(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : `${time.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function entryPage(csrf: string, code: string, error: string | null): string {
  return page('Sign in a device to gw', `${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<p>Enter the code that <code>gw login</code> shows in your terminal.</p>
<form method="post" action="/device"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="lookup">
<label>Code <input name="user_code" value="${escapeHtml(code)}" autocomplete="off" autocapitalize="characters" placeholder="BCDF-GHJK" required></label>
<button type="submit">Continue</button></form>`);
}

/**
 * RFC 8628 §5.4: what is being approved, so a code sent by someone else stands out.
 * What the hub observed (address, time) is kept apart from what the device merely
 * claims (program, computer name): a phishing sender can claim anything.
 */
export function confirmPage(csrf: string, record: DeviceCodeRecord, oidcIssuer: string | null, scriptNonce: string): string {
  const code = formatUserCode(record.user_code);
  const hidden = `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="user_code" value="${code}">`;
  const approve = oidcIssuer
    ? `<form method="post" action="/device">${hidden}<input type="hidden" name="action" value="oidc"><button type="submit">Sign in with ${escapeHtml(new URL(oidcIssuer).host)} to approve</button></form>`
    : `<form method="post" action="/device">${hidden}<input type="hidden" name="action" value="claim">
<label>Your email <input type="email" name="email" required autocomplete="email"></label><button type="submit">This was me: ask for approval</button></form>`;
  return page('Is this your login?', `<p>Only continue if you just ran <code>gw login</code> yourself and your terminal shows this code:</p>
<p class="code" data-testid="code">${code}</p>
<h2>What this hub saw</h2><dl data-testid="observed">
<dt>Requested from</dt><dd data-testid="ip">${escapeHtml(record.requester.ip)}</dd>
<dt>At</dt><dd><time data-testid="requested-at" datetime="${escapeHtml(record.created_at)}">${escapeHtml(utcText(record.created_at))}</time></dd></dl>
<h2>What the device says about itself</h2><p>Anyone can send these; they are not checked.</p><dl data-testid="claimed">
<dt>Program (claimed)</dt><dd data-testid="user-agent">${escapeHtml(record.requester.user_agent || '(not given)')}</dd>
<dt>Computer (claimed)</dt><dd data-testid="client-host">${escapeHtml(record.requester.client_host ?? '(not given)')}</dd></dl>
${approve}<form method="post" action="/device">${hidden}<input type="hidden" name="action" value="deny"><button type="submit">This was not me: deny</button></form>`, scriptNonce);
}

export function messagePage(title: string, message: string, status: 'ok' | 'error' = 'ok'): string {
  return page(title, `<p class="${status === 'error' ? 'error' : ''}" role="status">${escapeHtml(message)}</p>`);
}

/** After a claim: the admin's approve command on a line of its own (never wrapped), with a copy button. */
export function waitingPage(command: string, scriptNonce: string): string {
  return page('Waiting for approval', `<div role="status"><p>Thanks. Ask your gw hub admin to approve it by running:</p>
<pre><code id="approve-command" data-testid="approve-command">${escapeHtml(command)}</code></pre>
<button type="button" data-copy="approve-command" hidden>Copy command</button>
<p>Your terminal continues on its own once it is approved.</p></div>`, scriptNonce);
}
