// The audit trail: its state, verify on demand, the trails this hub witnesses.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { api, Problem, useLoad } from '../lib.js';
import { When } from './keys-format.js';

export function Audit({ personal }) {
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
          <td>${trail.newest_seq}</td><td><${When} at=${trail.newest_received_at} /></td><td class=${trail.refused ? 'error' : ''}>${trail.refused}</td></tr>`)}</tbody></table>`}`}`;
}

function Verdict({ verdict }) {
  if (verdict.error) return html`<p class="error" role="alert">${verdict.error}</p>`;
  return html`<div role="status" aria-label="Verification">
    <p class=${verdict.ok ? 'ok' : 'error'}><strong>${verdict.ok ? 'Intact' : 'BROKEN'}</strong> · checked <${When} at=${verdict.checked_at} /> in ${verdict.took_ms} ms</p>
    <ul>${verdict.chains.map((chain) => html`<li>${chain.name}: ${chain.ok ? `intact, ${chain.records} records` : html`<span class="error">BROKEN ${chain.problem}</span>`}
      ${chain.warnings.map((warning) => html`<br /><small>warning: ${warning}</small>`)}</li>`)}</ul></div>`;
}
