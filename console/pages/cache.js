// Prompt cache: per team and per session, how much input the providers' caches served (the hit
// ratio: cache reads over all input tokens), what that saved in dollars (negative when cache
// writes cost more than the reads saved: a miss streak) and the calls that broke a session's
// cache by going to another target. The same figures as `gw usage --cache` (docs/prompt-cache.md).
import { html } from '/ui/vendor/preact-htm.js';
import { Problem, useLoad, usd } from '../lib.js';

const ratio = (value) => (value === null ? '–' : `${(value * 100).toFixed(1)}%`);

function CacheTable({ by, label, rows }) {
  if (rows.length === 0) return html`<p class="hint">No calls in the last 30 days.</p>`;
  return html`
    <table aria-label=${label} class="cache-table"><thead><tr><th scope="col">${by}</th><th scope="col">Requests</th><th scope="col">Input tokens</th>
      <th scope="col">Cache reads</th><th scope="col">Cache writes</th><th scope="col">Hit ratio</th><th scope="col">Saved (USD)</th><th scope="col">Cache breaks</th></tr></thead>
      <tbody>${rows.map((row) => html`<tr>
        <td>${row.group}</td><td>${row.requests}</td><td>${row.input_tokens}</td><td>${row.cache_read_tokens}</td><td>${row.cache_write_tokens}</td>
        <td data-testid=${`cache-ratio-${by}-${row.group}`}>${ratio(row.cache_hit_ratio)}</td>
        <td data-testid=${`cache-saved-${by}-${row.group}`} class=${row.cache_saved_nano_usd < 0 ? 'cache-loss' : undefined}>${usd(row.cache_saved_nano_usd)}</td>
        <td data-testid=${`cache-breaks-${by}-${row.group}`}>${row.cache_breaks}</td></tr>`)}</tbody></table>`;
}

export function Cache() {
  const [teams] = useLoad('/admin/api/usage/cache?by=team');
  const [sessions] = useLoad('/admin/api/usage/cache?by=session');
  return html`<section class="cache-page">
    <h2>Prompt cache</h2>
    <p class="hint">Over the last 30 days. Saved: the calls priced as if every cached token were plain input, minus what they cost; a negative figure means cache writes cost more than the reads saved. A cache break is a session's call that went to another provider or model (a fallback), where its cache is cold.</p>
    <h3>By team</h3>
    <${Problem} error=${teams.error} />
    ${teams.data && html`<${CacheTable} by="team" label="Prompt cache by team" rows=${teams.data.rows} />`}
    <h3>By session</h3>
    <${Problem} error=${sessions.error} />
    ${sessions.data && html`<${CacheTable} by="session" label="Prompt cache by session" rows=${sessions.data.rows} />`}
    <p class="hint">Turn on a cache marker for clients that send none (Codex, scripts): <code>gw policy set team:NAME --cache-marker on</code>.</p></section>`;
}
