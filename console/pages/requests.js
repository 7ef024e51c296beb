// The request explorer: the trail's call records, filtered, each opened in full.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { api, Problem, useLoad } from '../lib.js';

const FILTERS = ['person', 'team', 'key_id', 'model', 'provider', 'status', 'since', 'until'];

export function Requests() {
  const [query, setQuery] = useState('');
  const [{ data, error }] = useLoad(`/admin/api/requests?limit=200${query}`, [query]);
  const [open, setOpen] = useState(null);
  const search = (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const id = form.get('request_id');
    if (id) return api('GET', `/admin/api/requests/${encodeURIComponent(id)}`).then(setOpen, (caught) => setOpen({ error: caught.message }));
    setQuery(FILTERS.map((name) => (form.get(name) ? `&${name}=${encodeURIComponent(form.get(name))}` : '')).join(''));
  };
  return html`
    <h2>Requests</h2>
    <form class="inline" onSubmit=${search} aria-label="Filter requests">
      ${FILTERS.map((name) => html`<label>${name.replace('_', ' ')}<input name=${name} size="12" placeholder=${name === 'since' || name === 'until' ? '2026-11-24T00:00' : ''} /></label>`)}
      <label>request id<input name="request_id" size="20" /></label>
      <button class="primary" type="submit">Search</button>
    </form>
    <${Problem} error=${error} />
    ${open && html`<${RequestDetail} record=${open} close=${() => setOpen(null)} />`}
    <table><thead><tr><th scope="col">Time</th><th scope="col">Person</th><th scope="col">Team</th><th scope="col">Model</th><th scope="col">Provider</th><th scope="col">Status</th><th scope="col">ms</th><th scope="col">Tokens</th><th scope="col"></th></tr></thead>
      <tbody>${(data ?? []).map((record) => html`<tr><td>${record.ts}</td><td>${record.person ?? ''}</td><td>${record.team ?? ''}</td><td>${record.model ?? ''}</td><td>${record.provider ?? ''}</td>
        <td>${record.status}</td><td>${record.latency_ms}</td><td>${record.tokens?.total ?? ''}</td>
        <td><button onClick=${() => setOpen(record)}>Open ${record.request_id}</button></td></tr>`)}</tbody></table>`;
}

function RequestDetail({ record, close }) {
  if (record.error) return html`<p class="error" role="alert">${record.error}</p>`;
  const attempts = record.data?.attempts ?? [];
  return html`<section class="card" aria-label=${`Request ${record.request_id}`}>
    <h2>Request ${record.request_id}</h2>
    <p>${record.operation} ${record.route} · ${record.model ?? ''} via ${record.provider ?? ''} · status ${record.status} · ${record.latency_ms} ms
      (upstream ${record.data?.upstream_ms ?? '?'} ms, gateway ${record.data?.overhead_ms ?? '?'} ms)</p>
    <p>person ${record.person ?? '–'} · team ${record.team ?? '–'} · key ${record.key_id ?? '–'} · outcome ${(record.outcome ?? []).join(', ')}</p>
    <p>tokens: ${JSON.stringify(record.tokens ?? {})}${record.cost ? html` · cost ${JSON.stringify(record.cost)}` : ''}</p>
    <p>DLP: ${record.dlp ? Object.entries(record.dlp).map(([rule, count]) => `${rule} ×${count}`).join(', ') : 'none'} · warnings: ${(record.warnings ?? []).join(', ') || 'none'}</p>
    ${attempts.length > 0 && html`<pre>${JSON.stringify(attempts, null, 2)}</pre>`}
    <button onClick=${close}>Close</button>
  </section>`;
}
