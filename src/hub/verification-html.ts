// The verification page's HTML: plain server-rendered forms, no script, so it
// works in any browser and under a strict Content-Security-Policy.
import { formatUserCode } from '../state/device-codes.js';
import type { DeviceCodeRecord } from '../state/schema.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · gw</title><style>body{font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}
input{font:inherit;padding:.4rem}button{font:inherit;padding:.4rem 1rem;margin:.3rem .3rem 0 0}.error{color:#a00}.code{font:1.6rem monospace;letter-spacing:.1em}
dt{font-weight:600}dd{margin:0 0 .5rem 0}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

export function entryPage(csrf: string, code: string, error: string | null): string {
  return page('Sign in a device to gw', `${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<p>Enter the code that <code>gw login</code> shows in your terminal.</p>
<form method="post" action="/device"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="lookup">
<label>Code <input name="user_code" value="${escapeHtml(code)}" autocomplete="off" autocapitalize="characters" placeholder="BCDF-GHJK" required></label>
<button type="submit">Continue</button></form>`);
}

/** RFC 8628 §5.4: what is being approved, so a code sent by someone else stands out. */
export function confirmPage(csrf: string, record: DeviceCodeRecord, oidcIssuer: string | null): string {
  const code = formatUserCode(record.user_code);
  const hidden = `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="user_code" value="${code}">`;
  const approve = oidcIssuer
    ? `<form method="post" action="/device">${hidden}<input type="hidden" name="action" value="oidc"><button type="submit">Sign in with ${escapeHtml(new URL(oidcIssuer).host)} to approve</button></form>`
    : `<form method="post" action="/device">${hidden}<input type="hidden" name="action" value="claim">
<label>Your email <input type="email" name="email" required autocomplete="email"></label><button type="submit">This was me: ask for approval</button></form>`;
  return page('Is this your login?', `<p>Only continue if you just ran <code>gw login</code> yourself and your terminal shows this code:</p>
<p class="code" data-testid="code">${code}</p><dl>
<dt>Requested from</dt><dd data-testid="ip">${escapeHtml(record.requester.ip)}</dd>
<dt>Program</dt><dd data-testid="user-agent">${escapeHtml(record.requester.user_agent || '(not given)')}</dd>
<dt>Computer</dt><dd>${escapeHtml(record.requester.client_host ?? '(not given)')}</dd>
<dt>At</dt><dd data-testid="requested-at">${escapeHtml(record.created_at)}</dd></dl>
${approve}<form method="post" action="/device">${hidden}<input type="hidden" name="action" value="deny"><button type="submit">This was not me: deny</button></form>`);
}

export function messagePage(title: string, message: string, status: 'ok' | 'error' = 'ok'): string {
  return page(title, `<p class="${status === 'error' ? 'error' : ''}" role="status">${escapeHtml(message)}</p>`);
}
