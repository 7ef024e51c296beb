// The request explorer: the trail's call records, newest first, each in words: its operation,
// and who refused it (a budget, a rate limit, a policy or DLP rule) or how it failed. The
// gateway's own control-plane calls (model lists, logins, audit checkpoints, MCP handshakes)
// show only when asked for. A row opens its formatted detail (request-detail.js).
import { html, useState } from '/ui/vendor/preact-htm.js';
import { api, Problem, useLoad } from '../lib.js';
import { RequestDetail } from './request-detail.js';
import { timeText } from './keys-format.js';

const FILTERS = ['person', 'team', 'key_id', 'model', 'provider', 'status', 'since', 'until'];

export function Requests() {
  const [query, setQuery] = useState('');
  const [controlPlane, setControlPlane] = useState(false);
  const [{ data, error }] = useLoad(`/admin/api/requests?limit=200${controlPlane ? '' : '&plane=data'}${query}`, [query, controlPlane]);
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
      ${FILTERS.map((name) => html`<label>${name.replace('_', ' ')}<input name=${name} size="10" placeholder=${name === 'since' || name === 'until' ? '2026-11-24' : ''} /></label>`)}
      <label>request id<input name="request_id" size="14" /></label>
      <button class="primary" type="submit">Search</button>
    </form>
    <label class="toggle"><input type="checkbox" checked=${controlPlane} onChange=${(event) => setControlPlane(event.target.checked)} />Show control-plane calls</label>
    <${Problem} error=${error} />
    ${open && html`<${RequestDetail} record=${open} close=${() => setOpen(null)} />`}
    <table class="requests"><thead><tr><th scope="col">Time</th><th scope="col">Operation</th><th scope="col">Person</th><th scope="col">Team</th><th scope="col">Model</th>
      <th scope="col">Status</th><th scope="col">Outcome</th><th scope="col">ms</th><th scope="col">Tokens</th><th scope="col">Request</th></tr></thead>
      <tbody>${(data ?? []).map((record) => html`<${Row} record=${record} open=${() => setOpen(record)} />`)}</tbody></table>`;
}

function Row({ record, open }) {
  const kind = record.result_kind ?? 'ok';
  return html`<tr class=${`result-${kind}`}>
    <td class="nowrap" title=${record.ts}>${timeText(record.ts)}</td><td class="nowrap">${record.what ?? record.operation ?? ''}</td>
    <td>${record.person ?? ''}</td><td>${record.team ?? ''}</td><td>${record.model ?? mcpTarget(record)}</td>
    <td>${record.status}</td><td class=${kind === 'ok' || kind === 'expected' ? '' : kind === 'refused' ? 'warn' : 'error'}>${record.result ?? (record.outcome ?? []).join(', ')}</td>
    <td>${record.latency_ms}</td><td>${record.tokens?.total ?? ''}</td>
    <td><button class="link" aria-label=${`Open request ${record.request_id}`} title=${record.request_id} onClick=${open}>${shortId(record.request_id)}</button></td></tr>`;
}

/** An MCP call's server and tool (or prompt) where a model call names its model. */
function mcpTarget(record) {
  const mcp = record.data?.mcp;
  return mcp?.server ? `${mcp.server}/${mcp.tool ?? mcp.prompt ?? mcp.uri ?? ''}`.replace(/\/$/, '') : '';
}

/** `req_04aaa1a2b408…` → `04aaa1a2`: enough to tell rows apart; the full id is in the detail and the title. */
function shortId(id) {
  return (id ?? '').replace(/^req_/, '').slice(0, 8);
}
