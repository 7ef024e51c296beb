// Usage: requests, spend and DLP hits per day, and totals, grouped as gw usage groups.
import { html, useEffect, useState } from '/ui/vendor/preact-htm.js';
import uPlot from '/ui/vendor/uplot.js';
import { api, Problem, useLoad, usd } from '../lib.js';

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

export function Usage() {
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
