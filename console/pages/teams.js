// Teams: create one, and see each team's members and keys (keys not revoked, session keys
// included, as `gw teams list` counts them). Each name opens the team's page (#teams/<name>);
// a team admin is shown only their own teams.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { api, Problem, useHashPath, useLoad } from '../lib.js';
import { Team } from './team.js';
import { When } from './keys-format.js';

export function Teams({ admin }) {
  const [, opened] = useHashPath();
  return opened ? html`<${Team} key=${opened} name=${opened} admin=${admin} />` : html`<${TeamList} admin=${admin} />`;
}

function TeamList({ admin }) {
  const [{ data, error }, reload] = useLoad('/admin/api/teams');
  const [people, reloadPeople] = useLoad('/admin/api/people');
  // Only the keys' records are counted here, not their use: the shortest window keeps the trail read small.
  const [keys, reloadKeys] = useLoad('/admin/api/keys?window=1m');
  const [message, setMessage] = useState(null);
  const members = (team) => (people.data ?? []).filter((person) => person.team === team).length;
  const keyCount = (team) => (keys.data ?? []).filter((item) => item.team === team && item.revoked_at === null).length;
  const add = async (event) => {
    event.preventDefault();
    const name = new FormData(event.target).get('name');
    try { await api('POST', '/admin/api/teams', { name }); setMessage({ text: `Created team ${name}.` }); event.target.reset(); } catch (caught) { setMessage({ error: caught.message }); }
    reload(); reloadPeople(); reloadKeys();
  };
  return html`<section class="teams-page">
    <h2>Teams</h2>
    <form class="inline" onSubmit=${add}><label>Name<input name="name" required /></label><button class="primary" type="submit">Create team</button></form>
    ${message?.text && html`<p role="status">${message.text}</p>`}
    <${Problem} error=${message?.error ?? error ?? people.error ?? keys.error} />
    <table><thead><tr><th scope="col">Team</th><th scope="col">Created</th><th scope="col" class="number">Members</th><th scope="col" class="number">Keys</th></tr></thead>
      <tbody>${(data ?? []).filter((team) => admin.role !== 'team_admin' || admin.teams.includes(team.name)).map((team) => html`<tr data-team=${team.name}><td><a href=${`#teams/${encodeURIComponent(team.name)}`}>${team.name}</a></td><td><${When} at=${team.created_at} /></td>
        <td class="number" data-testid="members">${people.data ? members(team.name) : ''}</td>
        <td class="number" data-testid="keys">${keys.data ? keyCount(team.name) : ''}</td></tr>`)}</tbody></table>
  </section>`;
}
