// Virtual keys: create one (shown once), revoke one.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { api, Problem, useLoad } from '../lib.js';

export function Keys() {
  const [{ data, error }, reload] = useLoad('/admin/api/keys');
  const [teams] = useLoad('/admin/api/teams');
  const [made, setMade] = useState(null);
  const [message, setMessage] = useState(null);
  const create = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    try { setMade(await api('POST', '/admin/api/keys', { team: form.get('team'), name: form.get('name'), expires: form.get('expires') })); setMessage(null); } catch (caught) { setMessage(caught.message); }
    reload();
  };
  const revoke = async (id) => {
    try { await api('DELETE', `/admin/api/keys/${encodeURIComponent(id)}`); setMessage(`Revoked ${id}.`); } catch (caught) { setMessage(caught.message); }
    reload();
  };
  return html`
    <h2>Virtual keys</h2>
    <form class="inline" onSubmit=${create}>
      <label>Team<select name="team" required>${(teams.data ?? []).map((team) => html`<option value=${team.name}>${team.name}</option>`)}</select></label>
      <label>Name<input name="name" /></label>
      <label>Expires (e.g. 30d)<input name="expires" size="8" /></label>
      <button class="primary" type="submit">Create key</button>
    </form>
    ${made && html`<div class="card" role="status"><p>Key ${made.id} for team ${made.team}. It is shown only this once; copy it now:</p><p class="secret" data-testid="new-key">${made.key}</p>
      <button onClick=${() => setMade(null)}>I have stored it</button></div>`}
    ${message && html`<p role="status">${message}</p>`}
    <${Problem} error=${error} />
    <table><thead><tr><th scope="col">Id</th><th scope="col">Team</th><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Status</th><th scope="col"></th></tr></thead>
      <tbody>${(data ?? []).map((key) => html`<tr><td>${key.id}</td><td>${key.team}</td><td>${key.name ?? ''}</td><td>${key.hint}</td><td>${key.status}</td>
        <td>${key.status === 'active' && html`<button class="danger" onClick=${() => revoke(key.id)}>Revoke ${key.id}</button>`}</td></tr>`)}</tbody></table>`;
}
