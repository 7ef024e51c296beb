// Teams: list and create.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { api, Problem, useLoad } from '../lib.js';

export function Teams() {
  const [{ data, error }, reload] = useLoad('/admin/api/teams');
  const [message, setMessage] = useState(null);
  const add = async (event) => {
    event.preventDefault();
    const name = new FormData(event.target).get('name');
    try { await api('POST', '/admin/api/teams', { name }); setMessage(`Created team ${name}.`); event.target.reset(); } catch (caught) { setMessage(caught.message); }
    reload();
  };
  return html`
    <h2>Teams</h2>
    <form class="inline" onSubmit=${add}><label>Name<input name="name" required /></label><button class="primary" type="submit">Create team</button></form>
    ${message && html`<p role="status">${message}</p>`}
    <${Problem} error=${error} />
    <table><thead><tr><th scope="col">Team</th><th scope="col">Created</th></tr></thead>
      <tbody>${(data ?? []).map((team) => html`<tr><td>${team.name}</td><td>${team.created_at}</td></tr>`)}</tbody></table>`;
}
