// The landing page: how the hub is doing right now, for a team lead as much as an admin. Spend
// today and each budget this period (spent and left, from the counter calls are refused on),
// refused and failed calls in the last hour, each provider's last hour, and the gw logins
// waiting for approval. Every figure is an admin API read a viewer may make too.
import { html } from '/ui/vendor/preact-htm.js';
import { Problem, useLoad, usd } from '../lib.js';
import { When, count } from './keys-format.js';

const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const LIMIT = 500;

/** Today in the reader's zone, as the usage report's `since` (a date). */
function today() {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

function Spend() {
  const [{ data, error }] = useLoad(`/admin/api/usage?by=team&since=${today()}&tz=${encodeURIComponent(ZONE)}`);
  const groups = data?.groups ?? [];
  const total = groups.reduce((sum, group) => sum + group.cost_nano_usd, 0);
  const unpriced = groups.reduce((sum, group) => sum + group.unpriced, 0);
  return html`<div class="card" aria-label="Spend today"><h3>Spend today</h3><${Problem} error=${error} />
    ${data && html`<p class="figure" data-testid="spend-today">$${usd(total)}</p>
      <p class="hint">${count(groups.reduce((sum, group) => sum + group.requests, 0), 'call')} by ${count(groups.length, 'team')}${unpriced > 0 ? `, ${unpriced} unpriced` : ''}</p>`}</div>`;
}

function LastHour() {
  const since = new Date(Date.now() - 3_600_000).toISOString();
  const [refused] = useLoad(`/admin/api/requests?status=4xx&since=${since}&limit=${LIMIT}`);
  const [failed] = useLoad(`/admin/api/requests?status=5xx&since=${since}&limit=${LIMIT}`);
  const shown = (rows) => (rows === null ? '…' : rows.length >= LIMIT ? `${LIMIT}+` : String(rows.length));
  return html`<div class="card" aria-label="Last hour"><h3>Last hour</h3><${Problem} error=${refused.error ?? failed.error} />
    <p><span class="figure" data-testid="refused-hour">${shown(refused.data)}</span> refused (4xx) · <span class="figure" data-testid="failed-hour">${shown(failed.data)}</span> failed (5xx)</p>
    <p class="hint">The Requests page says who refused each and why.</p></div>`;
}

function Devices() {
  const [{ data, error }] = useLoad('/admin/api/devices');
  return html`<div class="card" aria-label="Device logins waiting"><h3>Device logins waiting</h3><${Problem} error=${error} />
    ${data && html`<p><span class="figure" data-testid="pending-devices">${data.length}</span> ${data.length === 1 ? 'login waits' : 'logins wait'} for approval${data.length > 0 ? html` · <a href="#devices">approve or deny</a>` : ''}</p>`}</div>`;
}

function Budgets() {
  const [{ data, error }] = useLoad('/admin/api/budgets/status');
  const rows = data?.budgets ?? [];
  return html`<h3>Budgets this period</h3><${Problem} error=${error} />
    ${data && (rows.length === 0 ? html`<p>No budgets: spend is not limited.</p>` : html`<table aria-label="Budgets this period">
      <thead><tr><th scope="col">Scope</th><th scope="col">Period</th><th scope="col" class="number">Spent</th><th scope="col" class="number">Left</th><th scope="col" class="number">Budget</th><th scope="col">State</th><th scope="col">Resets</th></tr></thead>
      <tbody>${rows.map((row) => html`<tr><td>${row.scope.startsWith('team:') ? html`<a href=${`#teams/${encodeURIComponent(row.scope.slice(5))}`}>${row.scope}</a>` : row.scope}</td><td>${row.period}</td><td class="number">$${usd(row.spent_nano_usd)}</td><td class="number">$${usd(row.left_nano_usd)}</td>
        <td class="number">$${usd(row.amount_nano_usd)}</td><td class=${row.state === 'ok' ? 'ok' : row.state === 'over' ? 'error' : 'warn'}>${row.state === 'ok' ? `${row.used_percent}% used` : row.state}</td><td><${When} at=${row.resets_at} /></td></tr>`)}</tbody></table>`)}`;
}

function Providers() {
  const [{ data, error }] = useLoad('/admin/api/providers/health?window=1h');
  const rows = data?.providers ?? [];
  return html`<h3>Providers, last hour</h3><${Problem} error=${error} />
    ${data && (rows.length === 0 ? html`<p>No calls to a provider in the last hour.</p>` : html`<table aria-label="Providers, last hour">
      <thead><tr><th scope="col">Provider</th><th scope="col" class="number">Calls</th><th scope="col" class="number">Failed (5xx)</th><th scope="col" class="number">p95 ms</th></tr></thead>
      <tbody>${rows.map((row) => html`<tr><td>${row.provider}</td><td class="number">${row.requests}</td><td class="number">${row.errors}</td><td class="number">${row.p95_ms ?? ''}</td></tr>`)}</tbody></table>`)}`;
}

/** Each team's page, one click from the landing page (a team admin's own teams only). */
function Teams({ admin }) {
  const [{ data, error }] = useLoad('/admin/api/teams');
  const teams = (data ?? []).filter((team) => admin.role !== 'team_admin' || admin.teams.includes(team.name));
  return html`<div class="card" aria-label="Teams"><h3>${admin.role === 'team_admin' ? 'Your teams' : 'Teams'}</h3><${Problem} error=${error} />
    ${data && (teams.length === 0 ? html`<p>No teams yet.</p>` : html`<p>${teams.map((team, index) => html`${index > 0 ? ' · ' : ''}<a href=${`#teams/${encodeURIComponent(team.name)}`}>${team.name}</a>`)}</p>`)}</div>`;
}

export function Overview({ admin }) {
  return html`<section class="overview-page"><h2>Overview</h2>
    <div class="cards"><${Spend} /><${LastHour} /><${Devices} /><${Teams} admin=${admin} /></div>
    <${Budgets} /><${Providers} /></section>`;
}
