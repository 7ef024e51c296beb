// Usage: spend and requests per day as stacked bars by team, person, model, provider or key over
// a chosen range of days in the browser's time zone (the hub counts them there: ?tz=); budgets against spend; top spenders; unpriced calls counted, with
// the command that prices them; the totals as a table and as a CSV of exactly that table.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { Problem, useLoad, usd } from '../lib.js';
import { StackedBars, daysOf } from './usage-chart.js';
import { BudgetStatus } from './usage-budgets.js';
import { CsvLink, TopSpenders, TotalsTable, totalsOf } from './usage-table.js';

const GROUPINGS = [['team', 'team'], ['person', 'person'], ['model', 'model'], ['provider', 'provider'], ['key_id', 'key']];
const PRESETS = [7, 30, 90];
const DAY_MS = 86_400_000;

// The browser's zone: a team lead in San Francisco sees San Francisco days, as gw usage --tz shows them.
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
// en-CA writes dates as YYYY-MM-DD.
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
// Calendar arithmetic on dates (no instants): UTC here only because it has no daylight saving.
const daysBefore = (day, count) => new Date(Date.parse(`${day}T00:00:00Z`) - count * DAY_MS).toISOString().slice(0, 10);

/** The range as the report's window: dates the hub reads in the zone, the day after the last excluded. */
function windowOf(from, to) {
  return { since: from, until: daysBefore(to, -1) };
}

function RangePicker({ range, setRange }) {
  const preset = (days) => setRange({ from: daysBefore(today(), days - 1), to: today() });
  return html`<div class="usage-range" role="group" aria-label="Date range">
    <label>From <input type="date" value=${range.from} max=${range.to} onChange=${(event) => event.target.value && setRange({ ...range, from: event.target.value })} /></label>
    <label>To <input type="date" value=${range.to} min=${range.from} onChange=${(event) => event.target.value && setRange({ ...range, to: event.target.value })} /></label>
    ${PRESETS.map((days) => html`<button type="button" aria-pressed=${range.to === today() && range.from === daysBefore(today(), days - 1) ? 'true' : 'false'} onClick=${() => preset(days)}>${days}d</button>`)}
  </div>`;
}

/** `gw prices set mock/echo`: the record's model, prefixed with its provider unless it already is. */
const priceName = (entry) => (entry.provider && !entry.model.startsWith(`${entry.provider}/`) ? `${entry.provider}/${entry.model}` : entry.model);

function Unpriced({ report }) {
  const count = totalsOf(report).unpriced;
  if (count === 0) return null;
  return html`<section aria-label="Unpriced calls" class="usage-unpriced"><h3>${count} ${count === 1 ? 'call' : 'calls'} unpriced</h3>
    <p>Their models have no price, so their cost is in no spend figure above or below (never counted as $0). Give each model a price (USD per million tokens) and the calls from then on are priced:</p>
    <ul>${report.unpriced_models.map((entry) => html`<li data-testid=${`unpriced-model-${priceName(entry)}`}><a href=${`#prices/${priceName(entry)}`}>Set a price for ${priceName(entry)}</a> <span class="hint">(or <code>gw prices set ${priceName(entry)} --input … --output …</code>)</span> <span class="hint">(${entry.calls} ${entry.calls === 1 ? 'call' : 'calls'})</span></li>`)}</ul>
    <p class="hint">The Prices page lists and changes the hub's own prices; docs/spend.md explains the price book.</p>
  </section>`;
}

function Headline({ report }) {
  const total = totalsOf(report);
  const unpriced = total.unpriced > 0 ? html`; <strong>${total.unpriced} ${total.unpriced === 1 ? 'call' : 'calls'} unpriced</strong>` : '';
  // All calls unpriced: no bare $0.000000, the count says why there is no figure.
  const spend = total.cost_nano_usd === 0 && total.unpriced > 0 ? 'no priced spend' : `$${usd(total.cost_nano_usd)} spent`;
  return html`<p class="usage-headline" data-testid="usage-headline">${total.requests} requests, ${spend}${unpriced}.</p>`;
}

export function Usage({ personal }) {
  const [by, setBy] = useState('team');
  const [picked, setRange] = useState({ from: daysBefore(today(), 29), to: today() });
  // A From typed after the To is read as the same days the other way round.
  const range = picked.from <= picked.to ? picked : { from: picked.to, to: picked.from };
  const window = windowOf(range.from, range.to);
  const [{ data, error }] = useLoad(`/admin/api/usage?by=${by}&since=${window.since}&until=${window.until}&tz=${encodeURIComponent(ZONE)}`, [by, range.from, range.to]);
  const label = GROUPINGS.find(([name]) => name === by)[1];
  const days = daysOf(range.from, range.to);
  const caption = `Totals ${range.from} to ${range.to} (days in ${ZONE})`;
  return html`
    <h2>Usage</h2>
    <div class="usage-controls">
      <label>Group by <select value=${by} onChange=${(event) => setBy(event.target.value)}>
        ${GROUPINGS.map(([name, text]) => html`<option value=${name}>${text}</option>`)}</select></label>
      <${RangePicker} range=${range} setRange=${setRange} />
    </div>
    <${Problem} error=${error} />
    ${data && html`
      <${Headline} report=${data} />
      <${Unpriced} report=${data} />
      <div class="usage-charts">
        <${StackedBars} report=${data} days=${days} measure="cost_nano_usd" scale=${1e9} format=${(value) => `$${Number(value.toPrecision(3))}`} label=${`Spend per day by ${label} (USD)`} />
        <${StackedBars} report=${data} days=${days} measure="requests" label=${`Requests per day by ${label}`} />
      </div>
      <div class="usage-side">
        <${TopSpenders} report=${data} by=${label} />
        ${personal ? null : html`<${BudgetStatus} />`}
      </div>
      <${TotalsTable} report=${data} by=${label} caption=${caption} />
      <p><${CsvLink} report=${data} by=${label} zone=${data.tz ?? ZONE} name=${`gw-usage-by-${label}-${range.from}-to-${range.to}.csv`} /></p>
      <p class="hint">Spend counts priced calls, as <code>gw usage --since ${range.from} --until ${daysBefore(range.to, -1)} --tz ${ZONE}</code> does; a call whose model has no price is counted as unpriced, not as $0.</p>`}`;
}
