// Budgets: what is in force per scope, set or replace one, remove one, and what each budget has
// spent this period. Reads and changes are the CLI's own `gw budgets …` commands run on the hub.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { CommandOutput, Problem, useCommandJson, useConfirm, useLoad, usd } from '../lib.js';
import { ScopePicker, TeamPicker, option, useRunner } from './governance-shared.js';

export function Budgets() {
  const [{ data, error }, reloadList] = useCommandJson(['budgets', 'list']);
  // Spent and left this period, from the counter the gateway refuses calls on (budget-status.ts).
  const [status, reloadStatus] = useLoad('/admin/api/budgets/status');
  const reload = () => { reloadList(); reloadStatus(); };
  const standing = (budget) => (status.data?.budgets ?? []).find((row) => row.scope === budget.scope && row.period === budget.period);
  const [scope, setScope] = useState('');
  const [run, exec] = useRunner();
  const [check, execCheck] = useRunner();
  const set = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const argv = ['budgets', 'set', scope, option('amount', form.get('amount')), option('period', form.get('period'))];
    if (form.get('time_zone')) argv.push(option('time-zone', form.get('time_zone')));
    if (form.get('soft')) argv.push('--soft');
    if (await exec(argv)) reload();
  };
  const [ask, confirmation] = useConfirm();
  const remove = (budget) => ask({
    title: `Remove the ${budget.period}ly budget of ${budget.scope}`, detail: `Its $${budget.amount_usd} limit stops applying: ${budget.scope} can spend without it.`,
    action: `Remove budget ${budget.scope}`, run: async () => { if (await exec(['budgets', 'remove', budget.scope, option('period', budget.period)])) reload(); },
  });
  const test = (event) => {
    event.preventDefault();
    execCheck(['budgets', 'test', option('team', new FormData(event.target).get('team'))]);
  };
  return html`
    <h2>Budgets</h2>
    <p class="hint">USD per day, week or month for a team, a person or a key. A hard budget refuses a call (429) that could take it over; a soft one only warns.</p>
    <${Problem} error=${error} />
    ${confirmation}
    ${data && (data.length === 0 ? html`<p>No budgets: spend is not limited.</p>` : html`
      <table aria-label="Budgets in force"><thead><tr><th scope="col">Scope</th><th scope="col">Amount</th><th scope="col">Period</th><th scope="col">Mode</th><th scope="col" class="number">Spent</th><th scope="col" class="number">Left</th><th scope="col"></th></tr></thead>
        <tbody>${data.map((budget) => html`<tr><td>${budget.scope}</td><td>$${budget.amount_usd}</td><td>${budget.period}</td><td>${budget.mode === 'hard' ? 'hard (refuses)' : 'soft (warns)'}</td>
          <td class="number" data-testid="spent">${standing(budget) ? `$${usd(standing(budget).spent_nano_usd)}` : ''}</td><td class="number" data-testid="left">${standing(budget) ? `$${usd(standing(budget).left_nano_usd)}` : ''}</td>
          <td><button class="danger" onClick=${() => remove(budget)}>Remove budget ${budget.scope}${data.filter((other) => other.scope === budget.scope).length > 1 ? ` (${budget.period})` : ''}</button></td></tr>`)}</tbody></table>`)}
    <h3>Set a budget</h3>
    <form class="inline" onSubmit=${set} aria-label="Set a budget">
      <${ScopePicker} kinds=${['team', 'person', 'key']} value=${scope} onChange=${setScope} />
      <label>Amount (USD)<input name="amount" type="number" step="any" required size="8" /></label>
      <label>Period<select name="period">${['month', 'week', 'day'].map((period) => html`<option value=${period}>${period}</option>`)}</select></label>
      <label>Time zone<input name="time_zone" placeholder="UTC" size="12" /></label>
      <label class="check"><span><input name="soft" type="checkbox" /> soft (warn only)</span></label>
      <button class="primary" type="submit">Set budget</button>
    </form>
    <${CommandOutput} run=${run} />
    <h3>Spent this period</h3>
    <form class="inline" onSubmit=${test} aria-label="Check budgets">
      <${TeamPicker} label="For team" />
      <button type="submit">Check budgets</button>
    </form>
    <${CommandOutput} run=${check} />`;
}
