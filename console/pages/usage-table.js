// The Usage page's totals as rows of text: the table shows them and the CSV download is made
// from the very same rows, so the file holds exactly what is on the screen.
import { html, useEffect, useState } from '/ui/vendor/preact-htm.js';
import { usd } from '../lib.js';

/** A group's spend as shown: dollars, or "N calls unpriced" when none of its calls had a price. */
export function spendText(group) {
  if (group.cost_nano_usd === 0 && group.unpriced > 0) return `${group.unpriced} ${group.unpriced === 1 ? 'call' : 'calls'} unpriced`;
  return usd(group.cost_nano_usd);
}

export function totalsOf(report) {
  const sum = (name) => report.groups.reduce((total, group) => total + group[name], 0);
  return { group: 'Total', requests: sum('requests'), input_tokens: sum('input_tokens'), output_tokens: sum('output_tokens'), cost_nano_usd: sum('cost_nano_usd'), unpriced: sum('unpriced'), dlp_hits: sum('dlp_hits') };
}

/** Header and rows (strings) of the totals table, the total last. */
export function totalsRows(report, by) {
  const header = [by, 'Requests', 'Input tokens', 'Output tokens', 'Spend (USD)', 'Unpriced calls', 'DLP hits'];
  const row = (group) => [group.group, String(group.requests), String(group.input_tokens), String(group.output_tokens), spendText(group), String(group.unpriced), String(group.dlp_hits)];
  return { header, rows: report.groups.map(row), total: row(totalsOf(report)) };
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
export function toCsv(lines) {
  return lines.map((line) => line.map((field) => (/[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field)).join(',')).join('\r\n') + '\r\n';
}

export function TotalsTable({ report, by, caption }) {
  const { header, rows, total } = totalsRows(report, by);
  return html`<table aria-label="Usage totals" class="usage-totals"><caption>${caption}</caption>
    <thead><tr>${header.map((name) => html`<th scope="col">${name}</th>`)}</tr></thead>
    <tbody>${rows.map((cells) => html`<tr>${cells.map((cell, index) => index === 0 ? html`<th scope="row">${cell}</th>`
      : html`<td data-testid=${index === 1 ? `requests-${cells[0]}` : index === 4 ? `spend-${cells[0]}` : index === 5 ? `unpriced-${cells[0]}` : undefined}>${cell}</td>`)}</tr>`)}</tbody>
    <tfoot><tr>${total.map((cell, index) => index === 0 ? html`<th scope="row">${cell}</th>` : html`<td data-testid=${index === 5 ? 'unpriced-total' : index === 4 ? 'spend-total' : undefined}>${cell}</td>`)}</tr></tfoot>
  </table>`;
}

/**
 * A link that downloads the table as CSV: a Blob made here, no second request to the hub. The
 * table's caption names the zone of its days; the file has no caption, so a last column does.
 */
export function CsvLink({ report, by, zone, name }) {
  const [href, setHref] = useState(null);
  useEffect(() => {
    const { header, rows, total } = totalsRows(report, by);
    const lines = [[...header, 'Days in'], ...[...rows, total].map((row) => [...row, zone])];
    const url = URL.createObjectURL(new Blob([toCsv(lines)], { type: 'text/csv' }));
    setHref(url);
    return () => URL.revokeObjectURL(url);
  }, [report, by, zone]);
  return href ? html`<a class="button" href=${href} download=${name}>Download CSV</a>` : null;
}

/** The five groups that spent most in the range (priced calls only). */
export function TopSpenders({ report, by }) {
  const total = totalsOf(report).cost_nano_usd;
  const top = report.groups.filter((group) => group.cost_nano_usd > 0).sort((a, b) => b.cost_nano_usd - a.cost_nano_usd || a.group.localeCompare(b.group)).slice(0, 5);
  return html`<section aria-label="Top spenders" class="usage-top"><h3>Top spenders by ${by}</h3>
    ${top.length === 0 ? html`<p class="hint">No priced spend in this range.</p>` : html`<table aria-label="Top spenders"><thead><tr><th scope="col">#</th><th scope="col">${by}</th><th scope="col">Spend (USD)</th><th scope="col">Share</th><th scope="col">Requests</th></tr></thead>
      <tbody>${top.map((group, index) => html`<tr><td>${index + 1}</td><th scope="row">${group.group}</th><td>${usd(group.cost_nano_usd)}</td><td>${((group.cost_nano_usd / total) * 100).toFixed(1)}%</td><td>${group.requests}</td></tr>`)}</tbody></table>`}
  </section>`;
}
