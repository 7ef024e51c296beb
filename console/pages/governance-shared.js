// What the four governance pages (budgets, policies, DLP, routing) share: a scope picker fed by
// the hub's teams, people and keys, and a runner for the change commands. Every change goes through POST /admin/api/commands, so a form
// refuses what `gw … --hub` refuses, with the CLI's own message, and is an admin.change record.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { runCommand, useLoad } from '../lib.js';

/**
 * `--name=value`: a value is always joined to its option, so one that starts with "-" (an amount
 * of -1) reaches the CLI as a value, and the CLI's own check answers it.
 */
export const option = (name, value) => `--${name}=${value}`;

/** Runs a command and keeps what it printed (for CommandOutput); resolves true when it went through. */
export function useRunner() {
  const [run, setRun] = useState(null);
  const exec = async (argv) => {
    try {
      const answer = await runCommand(argv);
      setRun(answer);
      return answer.exit_code === 0;
    } catch (caught) {
      setRun({ error: caught.message });
      return false;
    }
  };
  return [run, exec, setRun];
}

const KIND_LABELS = { '*': 'Everyone', team: 'Teams', person: 'People', key: 'Keys' };

/**
 * One select naming a scope: `*`, team:NAME, person:EMAIL or key:vk_…, as the kinds given allow,
 * from the hub's own lists (so a scope picked here is one that exists).
 */
export function ScopePicker({ kinds, value, onChange, label = 'Scope', name = 'scope' }) {
  const [teams] = useLoad(kinds.includes('team') ? '/admin/api/teams' : null);
  const [people] = useLoad(kinds.includes('person') ? '/admin/api/people' : null);
  const [keys] = useLoad(kinds.includes('key') ? '/admin/api/keys' : null);
  const choices = {
    '*': [['*', 'everyone (*)']],
    team: (teams.data ?? []).map((team) => [`team:${team.name}`, `team:${team.name}`]),
    person: (people.data ?? []).map((person) => [`person:${person.email}`, `person:${person.email}`]),
    key: (keys.data ?? []).filter((key) => key.status === 'active').map((key) => [`key:${key.id}`, `key:${key.id}${key.name ? ` (${key.name})` : ''}`]),
  };
  return html`<label>${label}<select name=${name} required value=${value} onChange=${(event) => onChange?.(event.target.value)}>
    ${value === '' && html`<option value="" disabled>pick a scope</option>`}
    ${kinds.map((kind) => choices[kind].length > 0 && html`<optgroup label=${KIND_LABELS[kind]}>${choices[kind].map(([scope, text]) => html`<option value=${scope}>${text}</option>`)}</optgroup>`)}
  </select></label>`;
}

/** The team names, for the "as this team" pickers of the test forms. */
export function TeamPicker({ label = 'As team', name = 'team', optional = false }) {
  const [teams] = useLoad('/admin/api/teams');
  return html`<label>${label}<select name=${name}>
    ${optional && html`<option value="">(any)</option>`}
    ${(teams.data ?? []).map((team) => html`<option value=${team.name}>${team.name}</option>`)}</select></label>`;
}
