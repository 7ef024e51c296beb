// One session's timeline: each model call and MCP tool call in trail order, with its offset
// from the session's start, what it called, tokens, cost and outcome, and a bar on a shared
// time axis from the call's start to its end (the record is written when a call ends; its
// latency gives the start). The strict CSP allows no style attributes: the bars are SVG rects
// placed by their x and width attributes, coloured by class.
import { html } from '/ui/vendor/preact-htm.js';
import { Problem, useLoad, usd } from '../lib.js';

const AXIS_WIDTH = 200;
const FAILURES = new Set(['tool_error', 'refused', 'blocked', 'not_found', 'unavailable', 'upstream_error']);

const isTool = (call) => call.operation.startsWith('mcp ');
const failed = (call) => (call.status !== null && call.status >= 400) || call.outcome.some((code) => FAILURES.has(code));
const seconds = (ms) => `+${(ms / 1000).toFixed(1)} s`;

/** Each call's start and end in ms, and the session's span, for the axis. */
function placeCalls(calls) {
  const spans = calls.map((call) => {
    const end = Date.parse(call.ts);
    return { call, start: end - (call.latency_ms ?? 0), end };
  });
  const first = Math.min(...spans.map((span) => span.start));
  const last = Math.max(...spans.map((span) => span.end));
  return { spans, first, span: Math.max(1, last - first) };
}

function Bar({ start, end, first, span, kind }) {
  const x = ((start - first) / span) * AXIS_WIDTH;
  const width = Math.max(2, ((end - start) / span) * AXIS_WIDTH);
  return html`<svg class="session-bar" width=${AXIS_WIDTH} height="14" viewBox=${`0 0 ${AXIS_WIDTH} 14`} aria-hidden="true">
    <rect class="session-axis" x="0" y="6" width=${AXIS_WIDTH} height="2" />
    <rect class=${`session-${kind}`} x=${x.toFixed(1)} y="2" width=${Math.min(width, AXIS_WIDTH - x).toFixed(1)} height="10" rx="2" /></svg>`;
}

export function SessionTimeline({ id, close }) {
  const [{ data, error }] = useLoad(`/admin/api/sessions/${encodeURIComponent(id)}`, [id]);
  if (error) return html`<section class="card" aria-label=${`Session ${id}`}><${Problem} error=${error} /><button onClick=${close}>Close</button></section>`;
  if (!data) return null;
  const { spans, first, span } = placeCalls(data.calls);
  const total = (name) => data.calls.reduce((sum, call) => sum + (call[name] ?? 0), 0);
  const agents = [...new Set(data.calls.map((call) => call.agent).filter((agent) => agent !== null))];
  return html`<section class="card session-timeline" aria-label=${`Session ${id}`}>
    <h2>Session ${id}</h2>
    <p>${data.calls.length} calls (${data.calls.filter(isTool).length} through MCP) over ${(span / 1000).toFixed(1)} s · ${agents.join(', ')} ·
      tokens ${total('input_tokens')} in / ${total('output_tokens')} out · cost ${usd(total('cost_nano_usd'))} USD</p>
    <table><thead><tr><th scope="col">#</th><th scope="col">At</th><th scope="col">Call</th><th scope="col">Model or tool</th><th scope="col">Status</th>
      <th scope="col">In</th><th scope="col">Out</th><th scope="col">USD</th><th scope="col">Outcome</th><th scope="col">Time axis</th></tr></thead>
      <tbody>${spans.map(({ call, start, end }, index) => {
        const kind = failed(call) ? 'failed' : isTool(call) ? 'tool' : 'model';
        return html`<tr class=${`session-call session-call-${kind}`}>
          <td>${index + 1}</td><td>${seconds(start - first)}</td><td>${call.operation}</td><td class="session-target">${call.target ?? ''}</td><td>${call.status ?? ''}</td>
          <td>${call.input_tokens}</td><td>${call.output_tokens}</td><td>${call.cost_nano_usd === null ? '' : usd(call.cost_nano_usd)}</td>
          <td class=${kind === 'failed' ? 'error' : ''}>${call.outcome.join(' ')}</td>
          <td><${Bar} start=${start} end=${end} first=${first} span=${span} kind=${kind} /></td></tr>`;
      })}</tbody></table>
    <p class="hint">Bars: <span class="session-key-model">model call</span>, <span class="session-key-tool">MCP call</span>, <span class="session-key-failed">failed</span>.
      The same calls: <code>gw audit show --session ${id}</code></p>
    <button onClick=${close}>Close</button>
  </section>`;
}
