// People: add one to a team, remove one (their tokens are revoked), and how many devices each
// has signed in with: the active personal tokens, counted as `gw people list` counts them.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { api, Problem, useConfirm, useLoad } from '../lib.js';
import { When } from './keys-format.js';

export function People() {
  const [{ data, error }, reload] = useLoad('/admin/api/people');
  const [teams] = useLoad('/admin/api/teams');
  const [tokens, reloadTokens] = useLoad('/admin/api/tokens');
  const [message, setMessage] = useState(null);
  const active = (email) => (tokens.data ?? []).filter((token) => token.person === email && token.status === 'active').length;
  const add = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    try { await api('POST', '/admin/api/people', { email: form.get('email'), team: form.get('team') }); setMessage({ text: `Added ${form.get('email')}.` }); event.target.reset(); } catch (caught) { setMessage({ error: caught.message }); }
    reload();
  };
  const [ask, confirmation] = useConfirm();
  const remove = (email) => ask({ title: `Remove ${email}`, detail: 'Their signed-in devices (gw login tokens) are revoked at once.', action: `Remove ${email}`, run: () => removeNow(email) });
  const removeNow = async (email) => {
    try { await api('DELETE', `/admin/api/people/${encodeURIComponent(email)}`); setMessage({ text: `Removed ${email}; their tokens are revoked.` }); } catch (caught) { setMessage({ error: caught.message }); }
    reload(); reloadTokens();
  };
  return html`<section class="people-page">
    <h2>People</h2>
    <form class="inline" onSubmit=${add} noValidate>
      <label>Email<input name="email" type="email" required /></label>
      <label>Team<select name="team" required>${(teams.data ?? []).map((team) => html`<option value=${team.name}>${team.name}</option>`)}</select></label>
      <button class="primary" type="submit">Add person</button>
    </form>
    ${confirmation}
    ${message?.text && html`<p role="status">${message.text}</p>`}
    <${Problem} error=${message?.error ?? error ?? tokens.error} />
    <table><caption>Signed-in devices: the person's active tokens from gw login (gw tokens list).</caption>
      <thead><tr><th scope="col">Email</th><th scope="col">Team</th><th scope="col">Added</th><th scope="col" class="number">Signed-in devices</th><th scope="col"></th></tr></thead>
      <tbody>${(data ?? []).map((person) => html`<tr data-person=${person.email}><td>${person.email}</td><td>${person.team}</td><td><${When} at=${person.created_at} /></td>
        <td class="number" data-testid="devices">${tokens.data ? active(person.email) : ''}</td>
        <td><button class="danger" aria-label=${`Remove ${person.email}`} onClick=${() => remove(person.email)}>Remove</button></td></tr>`)}</tbody></table>
  </section>`;
}
