// The gw console: a page per task over the hub's admin API (/admin/api). No build step:
// Preact with htm and uPlot are served by gw from their npm packages (/ui/vendor/…).
// Changes send the session's x-gw-csrf header; the session itself is an HttpOnly cookie.
import { html, render, useEffect, useState } from '/ui/vendor/preact-htm.js';
import uPlot from '/ui/vendor/uplot.js';

let csrf = '';

async function api(method, path, body) {
  const response = await fetch(path, {
    method, credentials: 'same-origin',
    headers: { ...(method === 'GET' ? {} : { 'x-gw-csrf': csrf }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(json?.error?.message ?? `HTTP ${response.status}`), { status: response.status });
  return json;
}

function useLoad(path, deps = []) {
  const [state, setState] = useState({ data: null, error: null });
  // A null path loads nothing (a page part that is not for this console).
  const reload = () => path === null ? undefined : api('GET', path).then((data) => setState({ data, error: null }), (error) => setState({ data: null, error: error.message }));
  useEffect(() => { reload(); }, deps);
  return [state, reload];
}

function Problem({ error }) {
  return error ? html`<p class="error" role="alert">${error}</p>` : null;
}

function SignIn() {
  const [issuer, setIssuer] = useState(null);
  useEffect(() => { fetch('/ui/sign-in-options').then((response) => response.json()).then((options) => setIssuer(options.oidc_issuer), () => undefined); }, []);
  return html`
    <h1>gw console</h1>
    ${issuer && html`<div class="card"><p><a class="button primary" href="/ui/oidc/start">Sign in with ${new URL(issuer).host}</a></p>
      <p class="hint">For admins named in the hub's admin_emails or admin_group settings.</p></div>`}
    <div class="card">
      <form method="post" action="/ui/login">
        <label for="token">Admin token (made on the hub with <code>gw admin tokens create --name YOU</code>)</label>
        <input id="token" name="token" type="password" autocomplete="off" required size="60" />
        <p><button class="primary" type="submit">Sign in</button></p>
      </form>
    </div>`;
}

function Devices() {
  const [{ data, error }, reload] = useLoad('/admin/api/devices');
  const [people] = useLoad('/admin/api/people');
  const [message, setMessage] = useState(null);
  const act = async (code, verb, person) => {
    try {
      await api('POST', `/admin/api/devices/${encodeURIComponent(code)}/${verb}`, verb === 'approve' ? { person } : {});
      setMessage(`${verb === 'approve' ? 'Approved' : 'Denied'} ${code}.`);
    } catch (caught) { setMessage(caught.message); }
    reload();
  };
  return html`
    <h2>Device logins waiting</h2>
    <${Problem} error=${error} />
    ${message && html`<p class="ok" role="status">${message}</p>`}
    ${data && data.length === 0 && html`<p>No login is waiting.</p>`}
    ${data && data.length > 0 && html`
      <table>
        <thead><tr><th scope="col">Code</th><th scope="col">Seen by the hub</th><th scope="col">Claimed by the device</th><th scope="col">Person</th><th scope="col">Decision</th></tr></thead>
        <tbody>${data.map((code) => html`<${DeviceRow} key=${code.user_code} code=${code} people=${people.data ?? []} act=${act} />`)}</tbody>
      </table>`}`;
}

function DeviceRow({ code, people, act }) {
  const [picked, setPerson] = useState('');
  // The people list may arrive after the row: until someone picks, the claimed email or the first person.
  const person = picked || code.claimed.email || people[0]?.email || '';
  const id = `person-${code.user_code}`;
  return html`<tr>
    <td><strong>${code.user_code}</strong></td>
    <td>from ${code.observed.address}<br />at ${new Date(code.observed.at).toLocaleString()}</td>
    <td class="claim">program: ${code.claimed.program || '(none)'}<br />computer: ${code.claimed.computer || '(none)'}${code.claimed.email ? html`<br />says it is ${code.claimed.email}` : ''}</td>
    <td><label for=${id}>Approve for</label>
      <select id=${id} value=${person} onChange=${(event) => setPerson(event.target.value)}>
        ${people.map((entry) => html`<option value=${entry.email}>${entry.email}</option>`)}
      </select></td>
    <td><button class="primary" onClick=${() => act(code.user_code, 'approve', person)}>Approve ${code.user_code}</button>
      ${' '}<button class="danger" onClick=${() => act(code.user_code, 'deny')}>Deny</button></td>
  </tr>`;
}

function People() {
  const [{ data, error }, reload] = useLoad('/admin/api/people');
  const [teams] = useLoad('/admin/api/teams');
  const [message, setMessage] = useState(null);
  const add = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    try { await api('POST', '/admin/api/people', { email: form.get('email'), team: form.get('team') }); setMessage(`Added ${form.get('email')}.`); event.target.reset(); } catch (caught) { setMessage(caught.message); }
    reload();
  };
  const remove = async (email) => {
    try { await api('DELETE', `/admin/api/people/${encodeURIComponent(email)}`); setMessage(`Removed ${email}; their tokens are revoked.`); } catch (caught) { setMessage(caught.message); }
    reload();
  };
  return html`
    <h2>People</h2>
    <form class="inline" onSubmit=${add}>
      <label>Email<input name="email" type="email" required /></label>
      <label>Team<select name="team" required>${(teams.data ?? []).map((team) => html`<option value=${team.name}>${team.name}</option>`)}</select></label>
      <button class="primary" type="submit">Add person</button>
    </form>
    ${message && html`<p role="status">${message}</p>`}
    <${Problem} error=${error} />
    <table><thead><tr><th scope="col">Email</th><th scope="col">Team</th><th scope="col">Added</th><th scope="col"></th></tr></thead>
      <tbody>${(data ?? []).map((person) => html`<tr><td>${person.email}</td><td>${person.team}</td><td>${person.created_at}</td>
        <td><button class="danger" onClick=${() => remove(person.email)}>Remove ${person.email}</button></td></tr>`)}</tbody></table>`;
}

function Teams() {
  const [{ data, error }, reload] = useLoad('/admin/api/teams');
  const [message, setMessage] = useState(null);
  const add = async (event) => {
    event.preventDefault();
    const name = new FormData(event.target).get('name');
    try { await api('POST', '/admin/api/teams', { name }); setMessage(`Created team ${name}.`); event.target.reset(); } catch (caught) { setMessage(caught.message); }
    reload();
  };
  return html`
    <h2>Teams</h2>
    <form class="inline" onSubmit=${add}><label>Name<input name="name" required /></label><button class="primary" type="submit">Create team</button></form>
    ${message && html`<p role="status">${message}</p>`}
    <${Problem} error=${error} />
    <table><thead><tr><th scope="col">Team</th><th scope="col">Created</th></tr></thead>
      <tbody>${(data ?? []).map((team) => html`<tr><td>${team.name}</td><td>${team.created_at}</td></tr>`)}</tbody></table>`;
}

function Keys() {
  const [{ data, error }, reload] = useLoad('/admin/api/keys');
  const [teams] = useLoad('/admin/api/teams');
  const [made, setMade] = useState(null);
  const [message, setMessage] = useState(null);
  const create = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    try { setMade(await api('POST', '/admin/api/keys', { team: form.get('team'), name: form.get('name'), expires: form.get('expires') })); setMessage(null); } catch (caught) { setMessage(caught.message); }
    reload();
  };
  const revoke = async (id) => {
    try { await api('DELETE', `/admin/api/keys/${encodeURIComponent(id)}`); setMessage(`Revoked ${id}.`); } catch (caught) { setMessage(caught.message); }
    reload();
  };
  return html`
    <h2>Virtual keys</h2>
    <form class="inline" onSubmit=${create}>
      <label>Team<select name="team" required>${(teams.data ?? []).map((team) => html`<option value=${team.name}>${team.name}</option>`)}</select></label>
      <label>Name<input name="name" /></label>
      <label>Expires (e.g. 30d)<input name="expires" size="8" /></label>
      <button class="primary" type="submit">Create key</button>
    </form>
    ${made && html`<div class="card" role="status"><p>Key ${made.id} for team ${made.team}. It is shown only this once; copy it now:</p><p class="secret" data-testid="new-key">${made.key}</p>
      <button onClick=${() => setMade(null)}>I have stored it</button></div>`}
    ${message && html`<p role="status">${message}</p>`}
    <${Problem} error=${error} />
    <table><thead><tr><th scope="col">Id</th><th scope="col">Team</th><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Status</th><th scope="col"></th></tr></thead>
      <tbody>${(data ?? []).map((key) => html`<tr><td>${key.id}</td><td>${key.team}</td><td>${key.name ?? ''}</td><td>${key.hint}</td><td>${key.status}</td>
        <td>${key.status === 'active' && html`<button class="danger" onClick=${() => revoke(key.id)}>Revoke ${key.id}</button>`}</td></tr>`)}</tbody></table>`;
}

const FILTERS = ['person', 'team', 'key_id', 'model', 'provider', 'status', 'since', 'until'];

function Requests() {
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

function Chart({ report, measure, label, scale = 1, format }) {
  const [node, setNode] = useState(null);
  useEffect(() => {
    if (!node || !report) return undefined;
    // The last 14 days at least, each day present (zero when quiet), so one busy day still reads as a day.
    const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const first = Math.min(today - 13 * 86_400_000, ...report.daily.map((cell) => Date.parse(`${cell.day}T00:00:00Z`)));
    const days = [];
    for (let at = first; at <= today; at += 86_400_000) days.push(new Date(at).toISOString().slice(0, 10));
    const groups = [...new Set(report.daily.map((cell) => cell.group))];
    const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const series = groups.map((group) => days.map((day) => (report.daily.find((cell) => cell.day === day && cell.group === group)?.[measure] ?? 0) / scale));
    const colors = ['#0b5fb3', '#b3261e', '#1e7d32', '#8e44ad', '#d35400', '#16a085'];
    const plot = new uPlot({ width: Math.min(900, node.clientWidth || 900), height: 260, title: label,
      scales: { x: { time: true }, y: { range: (_plot, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      ...(format ? { axes: [{}, { size: 70, values: (_plot, splits) => splits.map(format) }] } : {}),
      series: [{}, ...groups.map((group, index) => ({ label: group, stroke: colors[index % colors.length], width: 2, points: { show: true } }))] }, [x, ...series], node);
    return () => plot.destroy();
  }, [node, report, measure]);
  return html`<figure><div ref=${setNode} role="img" aria-label=${label}></div></figure>`;
}

/** Nano-USD to dollars, to the micro-dollar: a cheap call still shows. */
const usd = (nanos) => (nanos / 1e9).toFixed(6);

function Usage() {
  const [by, setBy] = useState('team');
  // The charts show two weeks: only those are summed.
  const since = new Date(Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) - 13 * 86_400_000).toISOString();
  const [{ data, error }] = useLoad(`/admin/api/usage?by=${by}&since=${encodeURIComponent(since)}`, [by]);
  return html`
    <h2>Usage</h2>
    <label>Group by <select value=${by} onChange=${(event) => setBy(event.target.value)}>
      ${['team', 'person', 'model', 'provider', 'key_id'].map((name) => html`<option value=${name}>${name}</option>`)}</select></label>
    <${Problem} error=${error} />
    ${data && html`
      <${Chart} report=${data} measure="requests" label=${`Requests per day by ${by}`} />
      <${Chart} report=${data} measure="cost_nano_usd" scale=${1e9} format=${(value) => `$${Number(value.toPrecision(3))}`} label=${`Spend per day by ${by} (USD)`} />
      <${Chart} report=${data} measure="dlp_hits" label=${`DLP hits per day by ${by}`} />
      <table aria-label="Usage totals"><caption>Totals over the 14 days shown (UTC)</caption><thead><tr><th scope="col">${by}</th><th scope="col">Requests</th><th scope="col">Input tokens</th><th scope="col">Output tokens</th><th scope="col">Spend (USD)</th><th scope="col">DLP hits</th></tr></thead>
        <tbody>${data.groups.map((group) => html`<tr><td>${group.group}</td><td data-testid=${`requests-${group.group}`}>${group.requests}</td><td>${group.input_tokens}</td><td>${group.output_tokens}</td><td data-testid=${`spend-${group.group}`}>${usd(group.cost_nano_usd)}</td><td>${group.dlp_hits}</td></tr>`)}</tbody></table>
      <p class="hint">Spend counts priced calls, as <code>gw usage</code> does; a call whose model has no price is not in it (<code>gw prices set</code> gives it one).</p>`}`;
}

function Providers() {
  const [window, setWindow] = useState('1h');
  const [{ data, error }] = useLoad(`/admin/api/providers/health?window=${window}`, [window]);
  // More than 5% of calls failing is what an on-call person wants to see first.
  const health = (row) => row.errors === 0 ? ['ok', 'healthy'] : row.errors / row.requests > 0.05 ? ['error', 'failing'] : ['warn', 'some errors'];
  return html`<h2>Provider health</h2>
    <label>Window <select value=${window} onChange=${(event) => setWindow(event.target.value)}>
      ${['15m', '1h', '24h', '7d'].map((name) => html`<option value=${name}>${name}</option>`)}</select></label>
    <${Problem} error=${error} />
    ${data && (data.providers.length === 0 ? html`<p>No calls in the last ${data.window}.</p>` : html`
      <table aria-label="Provider health"><thead><tr><th scope="col">Provider</th><th scope="col">State</th><th scope="col">Requests</th><th scope="col">Errors (5xx)</th><th scope="col">Rate limited (429)</th><th scope="col">p50 ms</th><th scope="col">p95 ms</th><th scope="col">Last error</th></tr></thead>
        <tbody>${data.providers.map((row) => html`<tr><td>${row.provider}</td><td class=${health(row)[0]} data-testid=${`health-${row.provider}`}>${health(row)[1]}</td><td>${row.requests}</td><td>${row.errors}</td><td>${row.rate_limited}</td>
          <td>${row.p50_ms ?? '-'}</td><td>${row.p95_ms ?? '-'}</td><td>${row.last_error_at ? new Date(row.last_error_at).toLocaleString() : '-'}</td></tr>`)}</tbody></table>`)}
    <p class="hint">What callers got from each provider, read from the audit trail: errors are calls answered 5xx (the provider failed, timed out or died mid-stream).</p>`;
}

function Audit({ personal }) {
  const [{ data, error }] = useLoad('/admin/api/audit');
  const [witnessed] = useLoad(personal ? null : '/admin/api/audit/witnessed');
  const [verdict, setVerdict] = useState(null);
  const [verifying, setVerifying] = useState(false);
  const verify = async () => {
    setVerifying(true);
    try { setVerdict(await api('POST', '/admin/api/audit/verify')); } catch (caught) { setVerdict({ error: caught.message }); }
    setVerifying(false);
  };
  return html`<h2>Audit trail</h2><${Problem} error=${error} />
    ${data && html`<div class="card">
      <p>${data.writable ? html`<span class="ok">writable</span>` : html`<span class="error">not writable: ${data.problem}</span>`} · ${data.store === 'postgres' ? `PostgreSQL chain ${data.chain}` : data.file}</p>
      <p>newest durable record: ${data.head_seq ?? '?'} · last checkpoint: ${data.checkpoint ? `seq ${data.checkpoint.seq}` : 'none yet'}</p>
      <p>witnesses: ${data.witnesses.length === 0 ? 'none (the audit_witness setting names one; a sidecar always has its hub)'
        : data.witnesses.map((witness) => html`<span class=${witness.error ? 'error' : 'ok'}>${witness.name}: ${witness.error ? `behind (${witness.error})` : `has seq ${witness.witnessed_seq ?? '-'}`}</span> `)}</p>
      <p><button class="primary" onClick=${verify} disabled=${verifying}>${verifying ? 'Verifying…' : 'Verify now'}</button>
        ${' '}the same check as <code>gw audit verify</code>${data.store === 'postgres' ? ' --store' : ''} on the ${personal ? 'laptop' : 'hub'}.</p>
      ${verdict && html`<${Verdict} verdict=${verdict} />`}</div>`}
    ${witnessed.data && html`<h3>Trails this hub witnesses</h3>
      ${witnessed.data.length === 0 ? html`<p>No sidecar has sent a checkpoint yet.</p>` : html`
      <table aria-label="Witnessed trails"><thead><tr><th scope="col">Trail</th><th scope="col">Sender</th><th scope="col">Key</th><th scope="col">Newest seq</th><th scope="col">Received</th><th scope="col">Refused</th></tr></thead>
        <tbody>${witnessed.data.map((trail) => html`<tr><td><code>${trail.trail.slice(0, 12)}…</code></td><td>${trail.from?.person ?? trail.from?.team ?? '?'}</td><td><code>${trail.key}…</code></td>
          <td>${trail.newest_seq}</td><td>${new Date(trail.newest_received_at).toLocaleString()}</td><td class=${trail.refused ? 'error' : ''}>${trail.refused}</td></tr>`)}</tbody></table>`}`}`;
}

function Verdict({ verdict }) {
  if (verdict.error) return html`<p class="error" role="alert">${verdict.error}</p>`;
  return html`<div role="status" aria-label="Verification">
    <p class=${verdict.ok ? 'ok' : 'error'}><strong>${verdict.ok ? 'Intact' : 'BROKEN'}</strong> · checked ${new Date(verdict.checked_at).toLocaleString()} in ${verdict.took_ms} ms</p>
    <ul>${verdict.chains.map((chain) => html`<li>${chain.name}: ${chain.ok ? `intact, ${chain.records} records` : html`<span class="error">BROKEN ${chain.problem}</span>`}
      ${chain.warnings.map((warning) => html`<br /><small>warning: ${warning}</small>`)}</li>`)}</ul></div>`;
}

const PAGES = { devices: ['Device logins', Devices], people: ['People', People], teams: ['Teams', Teams], keys: ['Keys', Keys], requests: ['Requests', Requests], usage: ['Usage', Usage], providers: ['Providers', Providers], audit: ['Audit', Audit] };

// A laptop sidecar shows its person their own trail, read-only.
const PERSONAL_PAGES = { requests: PAGES.requests, usage: PAGES.usage, audit: PAGES.audit };

function Console({ admin }) {
  const pages = admin.personal ? PERSONAL_PAGES : PAGES;
  const [page, setPage] = useState(location.hash.slice(1) in pages ? location.hash.slice(1) : Object.keys(pages)[0]);
  const go = (name) => { location.hash = name; setPage(name); };
  const Page = pages[page][1];
  return html`
    <header><h1>gw console</h1>
      ${admin.personal
        ? html`<span>Your own requests on this laptop: ${admin.name} (read-only)</span>`
        : html`<form method="post" action="/ui/logout"><span>Signed in as ${admin.name} (${admin.id}) </span><button type="submit">Sign out</button></form>`}</header>
    <nav aria-label="Console pages">${Object.entries(pages).map(([name, [label]]) => html`<button aria-current=${page === name ? 'page' : undefined} onClick=${() => go(name)}>${label}</button>`)}</nav>
    <${Page} personal=${admin.personal === true} />`;
}

api('GET', '/admin/api/whoami').then((admin) => {
  csrf = admin.csrf ?? '';
  render(html`<${Console} admin=${admin} />`, document.getElementById('app'));
}, () => render(html`<${SignIn} />`, document.getElementById('app')));
