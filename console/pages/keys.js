// Virtual keys: create one (shown once), revoke one, and see each key's expiry, last use and
// spend over the last 30 days (from the trail, GET /admin/api/keys). Session keys (`gw token`,
// `gw run`: one hour-long key reused until it nears expiry) are hidden unless asked for, as
// `gw keys list` hides them unless --sessions.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { api, Problem, useConfirm, useLoad, usd } from '../lib.js';
import { When, count } from './keys-format.js';

function KeyRow({ item, revoke }) {
  return html`<tr data-key=${item.id}>
    <td>${item.id}</td><td>${item.team}</td>
    <td class=${item.session ? 'session' : undefined}>${item.session ? html`${item.name} <span class="tag">session</span>` : item.name ?? ''}</td>
    <td><code>${item.hint}</code></td>
    <td data-testid="expires"><${When} at=${item.expires_at} none="never" /></td>
    <td data-testid="last-used"><${When} at=${item.last_used_at} none="not used" /></td>
    <td class="number" data-testid="requests">${item.requests}</td>
    <td class="number" data-testid="spend" data-nano-usd=${item.spend_nano_usd}>${item.requests === 0 ? '' : `$${usd(item.spend_nano_usd)}`}</td>
    <td>${item.status}</td>
    <td>${item.status === 'active' && html`<button class="danger" aria-label=${`Revoke ${item.id}`} onClick=${() => revoke(item.id)}>Revoke</button>`}</td></tr>`;
}

export function Keys() {
  const [{ data, error }, reload] = useLoad('/admin/api/keys');
  const [teams] = useLoad('/admin/api/teams');
  const [made, setMade] = useState(null);
  const [message, setMessage] = useState(null);
  const [sessions, setSessions] = useState(false);
  const create = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    try { setMade(await api('POST', '/admin/api/keys', { team: form.get('team'), name: form.get('name'), expires: form.get('expires') })); setMessage(null); } catch (caught) { setMade(null); setMessage({ error: caught.message }); }
    reload();
  };
  const [ask, confirmation] = useConfirm();
  const revoke = (id) => ask({ title: `Revoke key ${id}`, detail: 'Every call with it is refused from now on.', action: `Revoke key ${id}`, run: () => revokeNow(id) });
  const revokeNow = async (id) => {
    try { await api('DELETE', `/admin/api/keys/${encodeURIComponent(id)}`); setMessage({ text: `Revoked ${id}.` }); } catch (caught) { setMessage({ error: caught.message }); }
    reload();
  };
  const all = data ?? [];
  const shown = sessions ? all : all.filter((item) => !item.session);
  const hidden = all.length - shown.length;
  return html`<section class="keys-page">
    <h2>Virtual keys</h2>
    <form class="inline" onSubmit=${create}>
      <label>Team<select name="team" required>${(teams.data ?? []).map((team) => html`<option value=${team.name}>${team.name}</option>`)}</select></label>
      <label>Name<input name="name" /></label>
      <label>Expires (e.g. 30d)<input name="expires" size="8" /></label>
      <button class="primary" type="submit">Create key</button>
    </form>
    ${made && html`<div class="card" role="status"><p>Key ${made.id} for team ${made.team}${made.expires_at ? html`, expires <${When} at=${made.expires_at} />` : ''}. It is shown only this once; copy it now:</p><p class="secret" data-testid="new-key">${made.key}</p>
      <button onClick=${() => setMade(null)}>I have stored it</button></div>`}
    ${confirmation}
    ${message?.text && html`<p role="status">${message.text}</p>`}
    <${Problem} error=${message?.error ?? error} />
    <div class="keys-toolbar">
      <label class="check"><input type="checkbox" checked=${sessions} onChange=${(event) => setSessions(event.target.checked)} />Show session keys</label>
      ${hidden > 0 && html`<span class="hint" data-testid="hidden-sessions">${count(hidden, 'session key')} (gw token, gw run) not shown</span>`}
    </div>
    <table><caption>Last use, requests and spend over the last 30 days, from the trail.</caption>
      <thead><tr><th scope="col">Id</th><th scope="col">Team</th><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col" class="number">Requests</th><th scope="col" class="number">Spend</th><th scope="col">Status</th><th scope="col"></th></tr></thead>
      <tbody>${shown.map((item) => html`<${KeyRow} key=${item.id} item=${item} revoke=${revoke} />`)}</tbody></table>
  </section>`;
}
