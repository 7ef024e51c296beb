// One team's page (#teams/<name>, issue 40): its people, keys, budgets and what it spent this
// period, with the changes a team lead makes every week (add or remove a person, create or revoke
// a key, set a budget). The hub checks the role on every change; the page also asks whoami first,
// so a viewer sees the actions disabled with the reason, and a team_admin sees only their teams.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { api, CommandOutput, Problem, useConfirm, useLoad, usd } from '../lib.js';
import { option, useRunner } from './governance-shared.js';
import { When, count } from './keys-format.js';

const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Why this sign-in may not change this team, or null: the hub's own rule (admin-role.ts), said before asking. */
function changeRefusal(admin, team) {
  if (admin.role === 'viewer') return 'You are a viewer: you can read this team, not change it.';
  if (admin.role === 'team_admin' && !admin.teams.includes(team)) return `You are a team admin of ${admin.teams.join(', ')}, not of ${team}.`;
  return null;
}

/** The first day of this month in the reader's zone: "spend this period" when the team has no budget. */
function monthStart() {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return `${day.slice(0, 8)}01`;
}

function Spend({ name }) {
  const [usage] = useLoad(`/admin/api/usage?by=team&since=${monthStart()}&tz=${encodeURIComponent(ZONE)}`);
  const [status] = useLoad('/admin/api/budgets/status');
  const group = (usage.data?.groups ?? []).find((row) => row.group === name);
  const budgets = (status.data?.budgets ?? []).filter((row) => row.scope === `team:${name}`);
  return html`<h3>Spend this period</h3><${Problem} error=${usage.error ?? status.error} />
    ${usage.data && html`<p>This month: <span class="figure" data-testid="team-spend">$${usd(group?.cost_nano_usd ?? 0)}</span> over ${count(group?.requests ?? 0, 'call')}${group?.unpriced ? `, ${group.unpriced} unpriced` : ''}.</p>`}
    ${status.data && (budgets.length === 0 ? html`<p>No budget: this team's spend is not limited.</p>` : html`<table aria-label="Team budgets">
      <thead><tr><th scope="col">Period</th><th scope="col" class="number">Spent</th><th scope="col" class="number">Left</th><th scope="col" class="number">Budget</th><th scope="col">Resets</th></tr></thead>
      <tbody>${budgets.map((row) => html`<tr><td>${row.period}</td><td class="number" data-testid="spent">$${usd(row.spent_nano_usd)}</td><td class="number" data-testid="left">$${usd(row.left_nano_usd)}</td>
        <td class="number">$${usd(row.amount_nano_usd)}</td><td><${When} at=${row.resets_at} /></td></tr>`)}</tbody></table>`)}`;
}

function People({ name, refusal, ask, say }) {
  const [{ data, error }, reload] = useLoad('/admin/api/people');
  const add = async (event) => {
    event.preventDefault();
    const email = new FormData(event.target).get('email');
    try { await api('POST', '/admin/api/people', { email, team: name }); say({ text: `Added ${email}.` }); event.target.reset(); } catch (caught) { say({ error: caught.message }); }
    reload();
  };
  const remove = (email) => ask({
    title: `Remove ${email}`, detail: 'Their signed-in devices (gw login tokens) are revoked at once.', action: `Remove ${email}`,
    run: async () => { try { await api('DELETE', `/admin/api/people/${encodeURIComponent(email)}`); say({ text: `Removed ${email}.` }); } catch (caught) { say({ error: caught.message }); } reload(); },
  });
  const people = (data ?? []).filter((person) => person.team === name);
  return html`<h3>People</h3><${Problem} error=${error} />
    <table aria-label="People of the team"><thead><tr><th scope="col">Email</th><th scope="col">Added</th><th scope="col"></th></tr></thead>
      <tbody>${people.map((person) => html`<tr><td>${person.email}</td><td><${When} at=${person.created_at} /></td>
        <td><button class="danger" disabled=${refusal !== null} title=${refusal ?? undefined} onClick=${() => remove(person.email)}>Remove ${person.email}</button></td></tr>`)}</tbody></table>
    ${refusal === null && html`<form class="inline" onSubmit=${add} aria-label="Add a person"><label>Email<input name="email" type="email" required /></label><button class="primary" type="submit">Add person</button></form>`}`;
}

function Keys({ name, refusal, ask, say }) {
  const [{ data, error }, reload] = useLoad(`/admin/api/keys?team=${encodeURIComponent(name)}`);
  const [made, setMade] = useState(null);
  const create = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    try { setMade(await api('POST', '/admin/api/keys', { team: name, name: form.get('name'), expires: form.get('expires') })); } catch (caught) { say({ error: caught.message }); }
    reload();
  };
  const revoke = (id) => ask({
    title: `Revoke key ${id}`, detail: 'Every call with it is refused from now on.', action: `Revoke key ${id}`,
    run: async () => { try { await api('DELETE', `/admin/api/keys/${encodeURIComponent(id)}`); say({ text: `Revoked ${id}.` }); } catch (caught) { say({ error: caught.message }); } reload(); },
  });
  const keys = (data ?? []).filter((key) => !key.session);
  return html`<h3>Keys</h3><${Problem} error=${error} />
    ${made && html`<div class="card" role="status"><p>Key ${made.id}: shown only this once, copy it now:</p><p class="secret" data-testid="new-key">${made.key}</p><button onClick=${() => setMade(null)}>I have stored it</button></div>`}
    <table aria-label="Keys of the team"><thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col" class="number">Spend (30 days)</th><th scope="col">Status</th><th scope="col"></th></tr></thead>
      <tbody>${keys.map((key) => html`<tr><td>${key.id}</td><td>${key.name ?? ''}</td><td><${When} at=${key.expires_at} none="never" /></td><td><${When} at=${key.last_used_at} none="not used" /></td>
        <td class="number">${key.requests === 0 ? '' : `$${usd(key.spend_nano_usd)}`}</td><td>${key.status}</td>
        <td>${key.status === 'active' && html`<button class="danger" disabled=${refusal !== null} title=${refusal ?? undefined} aria-label=${`Revoke ${key.id}`} onClick=${() => revoke(key.id)}>Revoke</button>`}</td></tr>`)}</tbody></table>
    ${refusal === null && html`<form class="inline" onSubmit=${create} aria-label="Create a key"><label>Key name<input name="name" /></label><label>Expires (e.g. 30d)<input name="expires" size="8" /></label><button class="primary" type="submit">Create key</button></form>`}`;
}

function SetBudget({ name, onSet }) {
  const [run, exec] = useRunner();
  const set = (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    exec(['budgets', 'set', `team:${name}`, option('amount', form.get('amount')), option('period', form.get('period'))]).then((done) => done && onSet());
  };
  return html`<form class="inline" onSubmit=${set} aria-label="Set the team's budget">
      <label>Budget (USD)<input name="amount" type="number" step="any" required size="8" /></label>
      <label>Period<select name="period">${['month', 'week', 'day'].map((period) => html`<option value=${period}>${period}</option>`)}</select></label>
      <button class="primary" type="submit">Set budget</button></form>
    <${CommandOutput} run=${run} label="Budget" />`;
}

export function Team({ name, admin }) {
  const [ask, confirmation] = useConfirm();
  const [message, say] = useState(null);
  // A budget set here shows in the spend table at once: a new key remounts it, and it reads again.
  const [generation, setGeneration] = useState(0);
  if (admin.role === 'team_admin' && !admin.teams.includes(name)) {
    return html`<section class="team-page"><h2>Team ${name}</h2><p role="alert" class="error">${name} is not one of your teams: you are a team admin of ${admin.teams.join(', ')}.</p><a href="#teams">All teams</a></section>`;
  }
  const refusal = changeRefusal(admin, name);
  return html`<section class="team-page">
    <p><a href="#teams">All teams</a></p><h2>Team ${name}</h2>
    ${refusal && html`<p class="hint" data-testid="read-only">${refusal}</p>`}
    ${confirmation}
    ${message?.text && html`<p role="status">${message.text}</p>`}
    <${Problem} error=${message?.error} />
    <${Spend} key=${generation} name=${name} />
    ${refusal === null && html`<${SetBudget} name=${name} onSet=${() => setGeneration(generation + 1)} />`}
    <${People} name=${name} refusal=${refusal} ask=${ask} say=${say} />
    <${Keys} name=${name} refusal=${refusal} ask=${ask} say=${say} />
  </section>`;
}
