// One request of the explorer, formatted: what it was and how it ended, its timings, its tokens
// (cache reads and writes too), what it cost (or why it has no price), the route it took and
// each attempt, DLP findings by rule, and warnings. Nothing here is raw JSON.
import { html } from '/ui/vendor/preact-htm.js';
import { timeText } from './keys-format.js';

const TOKEN_ROWS = [['input', 'Input'], ['output', 'Output'], ['cached_read', 'Cache read'], ['cache_write', 'Cache write'], ['reasoning', 'Reasoning'], ['total', 'Total']];

export function RequestDetail({ record, close }) {
  if (record.error) return html`<p class="error" role="alert">${record.error}</p>`;
  return html`<section class="card request-detail" aria-label=${`Request ${record.request_id}`}>
    <h2>Request ${record.request_id}</h2>
    <dl>
      <dt>When</dt><dd>${timeText(record.ts)}</dd>
      <dt>Operation</dt><dd>${record.what ?? record.operation} <span class="hint">(${record.operation ?? '?'} on ${record.route ?? '?'})</span></dd>
      <dt>Who</dt><dd>person ${record.person ?? '–'} · team ${record.team ?? '–'} · key ${record.key_id ?? '–'}${record.agent ? ` · ${record.agent}` : ''}${record.session ? html` · session <a href=${`#sessions/${encodeURIComponent(record.session)}`}>${record.session}</a>` : ''}</dd>
      <dt>Outcome</dt><dd>status ${record.status} · ${record.result ?? (record.outcome ?? []).join(', ')}</dd>
      ${record.data?.refusal && html`<dt>Refused</dt><dd>${record.data.refusal}</dd>`}
      <dt>Timings</dt><dd>${timings(record)}</dd>
      <dt>Cost</dt><dd>${costText(record)}</dd>
      <dt>Route taken</dt><dd>${routeTaken(record)}</dd>
      <dt>DLP findings</dt><dd>${dlpText(record)}</dd>
      <dt>Warnings</dt><dd>${(record.warnings ?? []).join('; ') || 'none'}</dd>
    </dl>
    <${Attempts} attempts=${record.data?.attempts} />
    <${Tokens} tokens=${record.tokens} />
    <button onClick=${close}>Close</button>
  </section>`;
}

function ms(value) {
  return typeof value === 'number' ? `${value} ms` : 'not measured';
}

function timings(record) {
  return `total ${ms(record.latency_ms)} · upstream ${ms(record.data?.upstream_ms)} · gateway ${ms(typeof record.data?.overhead_us === 'number' ? Math.round(record.data.overhead_us / 10) / 100 : undefined)}`;
}

/** Nano-USD in dollars to the micro-dollar, or why there is no amount. */
function costText(record) {
  const cost = record.cost;
  if (!cost) return record.tokens ? 'none recorded' : 'none: no usage';
  if (typeof cost.nano_usd !== 'number') return `no price (gw prices set ${record.provider && record.model && !record.model.includes('/') ? `${record.provider}/${record.model}` : record.model ?? 'PROVIDER/MODEL'} …)`;
  const how = [cost.price === 'dataset' ? 'dataset price' : cost.price === 'override' ? 'local price' : cost.price === 'hub' ? "the hub's price" : cost.price,
    cost.priced_as ? `as ${cost.priced_as}` : '', cost.discount ? `${cost.discount} discount` : '', cost.estimated ? 'estimated tokens' : ''].filter(Boolean).join(', ');
  return `$${(cost.nano_usd / 1e9).toFixed(6)} (${how})`;
}

function routeTaken(record) {
  const target = record.provider ? `${record.provider}${record.model ? ` · ${record.model}` : ''}` : 'no provider reached';
  return `${record.route ?? '?'} → ${target}`;
}

function dlpText(record) {
  const entries = Object.entries(record.dlp ?? {});
  if (entries.length === 0) return 'none';
  const places = new Map();
  for (const finding of record.data?.dlp_findings ?? []) places.set(finding.rule, [...(places.get(finding.rule) ?? []), finding.place]);
  return entries.map(([rule, count]) => `${rule} ×${count}${places.has(rule) ? ` (in ${places.get(rule).join(', ')})` : ''}`).join('; ');
}

function Attempts({ attempts }) {
  if (!Array.isArray(attempts) || attempts.length === 0) return null;
  return html`<h3>Attempts</h3><ol class="attempts" aria-label="Attempts">${attempts.map((attempt) => html`<li>${attempt.target}: ${
    attempt.error ? `failed (${attempt.error})` : `answered ${attempt.status}`} after ${attempt.ms} ms</li>`)}</ol>`;
}

function Tokens({ tokens }) {
  if (!tokens) return html`<p>Tokens: none reported.</p>`;
  return html`<table class="tokens" aria-label="Tokens"><caption>Tokens</caption><tbody>
    ${TOKEN_ROWS.map(([name, label]) => html`<tr><th scope="row">${label}</th><td>${tokens[name] ?? 0}</td></tr>`)}</tbody></table>`;
}
