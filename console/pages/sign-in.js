// The sign-in page: an admin token, or the hub's OpenID Connect provider when one is set.
import { html, useEffect, useState } from '/ui/vendor/preact-htm.js';

export function SignIn() {
  const [issuer, setIssuer] = useState(null);
  useEffect(() => { fetch('/ui/sign-in-options').then((response) => response.json()).then((options) => setIssuer(options.oidc_issuer), () => undefined); }, []);
  // The label's words sit in one span: a label is a flex column (app.css), so bare text and a
  // <code> beside it would each take a line of their own.
  return html`
    <h1>gw console</h1>
    ${issuer && html`<div class="card"><p><a class="button primary" href="/ui/oidc/start">Sign in with ${new URL(issuer).host}</a></p>
      <p class="hint">For admins named in the hub's admin_emails or admin_group settings.</p></div>`}
    <div class="card">
      <form method="post" action="/ui/login">
        <label for="token"><span>Admin token (made on the hub with <code>gw admin tokens create --name YOU</code>)</span></label>
        <input id="token" name="token" type="password" autocomplete="off" required size="60" />
        <p><button class="primary" type="submit">Sign in</button></p>
      </form>
    </div>`;
}
