// The Usage page's stacked bars: one bar per day of the chosen range, one band per group (the
// busiest groups, the rest as "(other)"), and a legend that names every band without hovering.
// uPlot draws each series from 0 up, so each band is drawn as the sum of itself and every band
// below it, tallest first: what shows of each is its own share.
import { html, useEffect, useState } from '/ui/vendor/preact-htm.js';
import uPlot from '/ui/vendor/uplot.js';

const COLORS = ['#0b5fb3', '#b3261e', '#1e7d32', '#8e44ad', '#d35400', '#16a085', '#7f6000', '#5d6d7e'];
const MOST_BANDS = COLORS.length;
const DAY_MS = 86_400_000;

/** Every date from `from` to `to` (YYYY-MM-DD), both included (calendar arithmetic, done in UTC for its fixed days). */
export function daysOf(from, to) {
  const days = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += DAY_MS) days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

/** The bands: per group its value per day, the busiest first; past the palette the rest are summed as "(other)". */
export function bandsOf(report, days, measure) {
  const totals = new Map();
  for (const cell of report.daily) totals.set(cell.group, (totals.get(cell.group) ?? 0) + cell[measure]);
  const ranked = [...totals.entries()].filter(([, total]) => total > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([group]) => group);
  const shown = ranked.length > MOST_BANDS ? ranked.slice(0, MOST_BANDS - 1) : ranked;
  const index = new Map(days.map((day, at) => [day, at]));
  const bands = shown.map((group) => ({ group, values: days.map(() => 0), total: 0 }));
  const other = { group: '(other)', values: days.map(() => 0), total: 0 };
  const byGroup = new Map(bands.map((band) => [band.group, band]));
  for (const cell of report.daily) {
    const at = index.get(cell.day);
    if (at === undefined || !totals.get(cell.group)) continue;
    const band = byGroup.get(cell.group) ?? other;
    band.values[at] += cell[measure];
    band.total += cell[measure];
  }
  return other.total > 0 ? [...bands, other] : bands;
}

export function StackedBars({ report, days, measure, label, scale = 1, format = String }) {
  const [node, setNode] = useState(null);
  const bands = bandsOf(report, days, measure);
  useEffect(() => {
    if (!node) return undefined;
    // Each day's local midnight: uPlot labels its time axis in the browser's zone, the zone the days are counted in.
    const x = days.map((day) => Date.parse(`${day}T00:00:00`) / 1000);
    // Band k drawn as the sum of bands k… (those below it): drawn first, it is overdrawn but for its own share.
    const stacked = bands.map((_band, index) => days.map((_day, at) => bands.slice(index).reduce((sum, band) => sum + band.values[at], 0) / scale));
    const bars = uPlot.paths.bars({ size: [0.7, 48] });
    const half = 43_200;
    const plot = new uPlot({
      width: Math.min(1100, node.clientWidth || 900), height: 240, legend: { show: false },
      scales: { x: { time: true, range: () => [x[0] - half, x[x.length - 1] + half] }, y: { range: (_plot, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [{}, { size: 70, values: (_plot, splits) => splits.map((value) => format(value)) }],
      series: [{}, ...bands.map((band, index) => ({ label: band.group, fill: COLORS[index % COLORS.length], stroke: COLORS[index % COLORS.length], width: 0, paths: bars, points: { show: false } }))],
    }, [x, ...stacked], node);
    return () => plot.destroy();
  }, [node, report, measure, days.join()]);
  return html`<figure class="usage-chart" data-days=${days.length} data-from=${days[0]} data-to=${days[days.length - 1]}>
    <figcaption>${label}</figcaption>
    <div ref=${setNode} role="img" aria-label=${label}></div>
    ${bands.length === 0
      ? html`<p class="hint">Nothing in this range.</p>`
      : html`<ul class="usage-legend" aria-label=${`Legend: ${label}`}>${bands.map((band, index) => html`<li><span class=${`usage-swatch usage-swatch-${index}`}></span>${band.group} <span class="usage-legend-total">${format(band.total / scale)}</span></li>`)}</ul>`}
  </figure>`;
}
