// Provider health, from what callers actually got in the trail.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { Problem, useLoad } from '../lib.js';
import { When } from './keys-format.js';
import { providerState } from './provider-state.js';

export function ProviderHealth() {
  const [window, setWindow] = useState('1h');
  const [{ data, error }] = useLoad(`/admin/api/providers/health?window=${window}`, [window]);
  // Reachability and volume (provider-state.js): every call failing is failing; a rate needs enough calls.
  const health = (row) => { const state = providerState(row); return [state.level, state.text]; };
  return html`<h2>Provider health</h2>
    <label>Window <select value=${window} onChange=${(event) => setWindow(event.target.value)}>
      ${['15m', '1h', '24h', '7d'].map((name) => html`<option value=${name}>${name}</option>`)}</select></label>
    <${Problem} error=${error} />
    ${data && (data.providers.length === 0 ? html`<p>No calls in the last ${data.window}.</p>` : html`
      <table aria-label="Provider health"><thead><tr><th scope="col">Provider</th><th scope="col">State</th><th scope="col">Requests</th><th scope="col">Errors (5xx)</th><th scope="col">Rate limited (429)</th><th scope="col">p50 ms</th><th scope="col">p95 ms</th><th scope="col">Last error</th></tr></thead>
        <tbody>${data.providers.map((row) => html`<tr><td>${row.provider}</td><td class=${health(row)[0]} data-testid=${`health-${row.provider}`}>${health(row)[1]}</td><td>${row.requests}</td><td>${row.errors}</td><td>${row.rate_limited}</td>
          <td>${row.p50_ms ?? '-'}</td><td>${row.p95_ms ?? '-'}</td><td><${When} at=${row.last_error_at} none="-" /></td></tr>`)}</tbody></table>`)}
    <p class="hint">What callers got from each provider, read from the audit trail: errors are calls answered 5xx (the provider failed, refused the connection, timed out or died mid-stream). Failing: every call in the window failed, or more than 20% of at least 10 calls; some errors: fewer.</p>`;
}
