// The Usage page's budgets against spend: what each budget has spent this period, as the gateway
// counts it when it admits a call (GET /admin/api/budgets/status), and what is left.
import { html } from '/ui/vendor/preact-htm.js';
import { Problem, useLoad } from '../lib.js';

/** Dollars as gw's CLI and refusals print them: cents, or two significant digits below a cent. */
export function dollars(nanos) {
  const value = nanos / 1e9;
  return value >= 0.01 || value === 0 ? `$${value.toFixed(2)}` : `$${value.toPrecision(2)}`;
}

const STATE = { ok: 'ok', over: 'over: calls refused', warning: 'soft: spent, calls warned' };

export function BudgetStatus() {
  const [{ data, error }] = useLoad('/admin/api/budgets/status', []);
  return html`<section aria-label="Budgets" class="usage-budgets"><h3>Budgets this period</h3>
    <${Problem} error=${error} />
    ${data && (data.budgets.length === 0
      ? html`<p class="hint">No budgets. <code>gw budgets set team:NAME --amount 100 --period month</code> sets one.</p>`
      : html`<table aria-label="Budgets against spend"><thead><tr><th scope="col">Scope</th><th scope="col">Period</th><th scope="col">Budget</th><th scope="col">Spent this period</th><th scope="col">Left</th><th scope="col">% used</th><th scope="col">State</th></tr></thead>
        <tbody>${data.budgets.map((budget) => html`<tr data-testid=${`budget-${budget.scope}`}>
          <th scope="row">${budget.scope}</th><td>${budget.period} (${budget.mode}, ${budget.time_zone})</td><td>${dollars(budget.amount_nano_usd)}</td>
          <td>${dollars(budget.spent_nano_usd)}</td><td>${dollars(budget.left_nano_usd)}</td><td>${budget.used_percent.toFixed(1)}%</td>
          <td class=${`usage-budget-${budget.state}`}>${STATE[budget.state]}</td></tr>`)}</tbody></table>
        <p class="hint">Spent counts what the gateway counts when it admits a call, calls still running included; the period resets at local midnight of its time zone.</p>`)}
  </section>`;
}
