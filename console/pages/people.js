// People: add one to a team, remove one (their tokens are revoked).
import { html, useState } from '/ui/vendor/preact-htm.js';
import { api, Problem, useLoad } from '../lib.js';

export function People() {
  const [{ data, error }, reload] = useLoad('/admin/api/people');
  const [teams] = useLoad('/admin/api/teams');
  const [message, setMessage] = useState(null);
  const add = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    try { await api('POST', '/admin/api/people', { email: form.get('email'), team: form.get('team') }); setMessage(`Added ${form.get('email')}.`); event.target.reset(); } catch (caught) { setMessage(caught.message); }
    reload();
  };
  const remove = async (email) => {
    try { await api('DELETE', `/admin/api/people/${encodeURIComponent(email)}`); setMessage(`Removed ${email}; their tokens are revoked.`); } catch (caught) { setMessage(caught.message); }
    reload();
  };
  return html`
    <h2>People</h2>
    <form class="inline" onSubmit=${add}>
      <label>Email<input name="email" type="email" required /></label>
      <label>Team<select name="team" required>${(teams.data ?? []).map((team) => html`<option value=${team.name}>${team.name}</option>`)}</select></label>
      <button class="primary" type="submit">Add person</button>
    </form>
    ${message && html`<p role="status">${message}</p>`}
    <${Problem} error=${error} />
    <table><thead><tr><th scope="col">Email</th><th scope="col">Team</th><th scope="col">Added</th><th scope="col"></th></tr></thead>
      <tbody>${(data ?? []).map((person) => html`<tr><td>${person.email}</td><td>${person.team}</td><td>${person.created_at}</td>
        <td><button class="danger" onClick=${() => remove(person.email)}>Remove ${person.email}</button></td></tr>`)}</tbody></table>`;
}
