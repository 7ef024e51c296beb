// Sessions: a coding agent's run (Claude Code, Codex, Gemini CLI, opencode) as one unit of work
// (docs/sessions.md). The recent sessions with their totals, and per session a timeline of its
// model calls and MCP tool calls in order, as `gw audit show --session` lists them. The address
// #sessions/<id> opens one session, so another page can link to it.
import { html, useEffect, useState } from '/ui/vendor/preact-htm.js';
import { Problem, useLoad, usd } from '../lib.js';
import { SessionTimeline } from './sessions-timeline.js';

const FILTERS = ['person', 'team', 'since'];

/** The session named by the address (#sessions/<id>), or null. */
function sessionInHash() {
  const match = /^#sessions\/(.+)$/.exec(location.hash);
  return match ? decodeURIComponent(match[1]) : null;
}

export function Sessions() {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(sessionInHash);
  const [{ data, error }] = useLoad(`/admin/api/sessions?limit=200${query}`, [query]);
  useEffect(() => {
    const follow = () => setOpen(sessionInHash());
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  const show = (id) => { location.hash = id === null ? 'sessions' : `sessions/${encodeURIComponent(id)}`; setOpen(id); };
  const search = (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    setQuery(FILTERS.map((name) => (form.get(name) ? `&${name}=${encodeURIComponent(form.get(name))}` : '')).join(''));
  };
  return html`
    <h2>Sessions</h2>
    <p class="hint">A session is one agent run: its model calls and MCP tool calls share the session id the client sent.</p>
    <form class="inline" onSubmit=${search} aria-label="Filter sessions">
      ${FILTERS.map((name) => html`<label>${name}<input name=${name} size="14" placeholder=${name === 'since' ? '2026-11-24T00:00' : ''} /></label>`)}
      <button class="primary" type="submit">Search</button>
    </form>
    ${open !== null && html`<${SessionTimeline} id=${open} close=${() => show(null)} />`}
    <${Problem} error=${error} />
    <${SessionTable} sessions=${data?.sessions} since=${data?.since} show=${show} />`;
}

function SessionTable({ sessions, since, show }) {
  if (!sessions) return null;
  if (sessions.length === 0) return html`<p class="hint">No session since ${since}.</p>`;
  return html`<table class="sessions"><caption>Most recently active first, since ${since}</caption>
    <thead><tr><th scope="col">Session</th><th scope="col">Person</th><th scope="col">Agent</th><th scope="col">Last call</th>
      <th scope="col">Calls</th><th scope="col">Tools</th><th scope="col">In / out</th><th scope="col">USD</th><th scope="col">Errors</th></tr></thead>
    <tbody>${sessions.map((row) => html`<tr>
      <td><button class="session-id" onClick=${() => show(row.session)}>${row.session}</button></td>
      <td>${row.person ?? ''}${row.team ? html`<br /><span class="hint">${row.team}</span>` : ''}</td>
      <td>${row.agents.join(', ')}</td><td>${row.last_ts.slice(0, 19).replace('T', ' ')}</td><td>${row.calls}</td><td>${row.tool_calls}</td>
      <td>${row.input_tokens} / ${row.output_tokens}</td><td>${usd(row.cost_nano_usd)}${row.unpriced > 0 ? html` <span class="hint">(${row.unpriced} unpriced)</span>` : ''}</td>
      <td class=${row.errors > 0 ? 'error' : ''}>${row.errors}</td></tr>`)}</tbody></table>`;
}
