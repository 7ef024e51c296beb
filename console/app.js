// The gw console: a page per task over the hub's admin API (/admin/api). No build step:
// Preact with htm and uPlot are served by gw from their npm packages (/ui/vendor/…); each page
// is its own module under pages/, and the table below is the navigation.
import { html, render, useEffect, useState } from '/ui/vendor/preact-htm.js';
import { api, setCsrf } from './lib.js';
import { Audit } from './pages/audit.js';
import { Budgets } from './pages/budgets.js';
import { Cache } from './pages/cache.js';
import { Devices } from './pages/devices.js';
import { Dlp } from './pages/dlp.js';
import { Guardrails } from './pages/guardrails.js';
import { Keys } from './pages/keys.js';
import { Mcp } from './pages/mcp.js';
import { Overview } from './pages/overview.js';
import { People } from './pages/people.js';
import { Prices } from './pages/prices.js';
import { Policies } from './pages/policies.js';
import { Providers } from './pages/providers.js';
import { Requests } from './pages/requests.js';
import { Routes } from './pages/routes.js';
import { Sessions } from './pages/sessions.js';
import { Settings } from './pages/settings.js';
import { SignIn } from './pages/sign-in.js';
import { Teams } from './pages/teams.js';
import { Usage } from './pages/usage.js';

// The navigation, in order: the hash in the address (#keys) names the page.
const PAGES = {
  overview: ['Overview', Overview],
  devices: ['Device logins', Devices],
  people: ['People', People],
  teams: ['Teams', Teams],
  keys: ['Keys', Keys],
  requests: ['Requests', Requests],
  sessions: ['Sessions', Sessions],
  usage: ['Usage', Usage],
  cache: ['Prompt cache', Cache],
  providers: ['Providers', Providers],
  mcp: ['MCP servers', Mcp],
  budgets: ['Budgets', Budgets],
  policies: ['Policies', Policies],
  dlp: ['DLP', Dlp],
  guardrails: ['Guardrails', Guardrails],
  routes: ['Routing', Routes],
  prices: ['Prices', Prices],
  settings: ['Settings', Settings],
  audit: ['Audit', Audit],
};

// A laptop sidecar shows its person their own trail, read-only.
const PERSONAL_PAGES = { requests: PAGES.requests, sessions: PAGES.sessions, usage: PAGES.usage, audit: PAGES.audit };

/** The role the hub gave this sign-in (whoami): every change is checked against it on the hub. */
function roleText(admin) {
  if (admin.role === 'viewer') return 'viewer: read-only';
  if (admin.role === 'team_admin') return `team admin of ${admin.teams.join(', ')}`;
  return 'admin';
}

function Console({ admin }) {
  const pages = admin.personal ? PERSONAL_PAGES : PAGES;
  const [page, setPage] = useState(location.hash.slice(1).split('/')[0] in pages ? location.hash.slice(1).split('/')[0] : Object.keys(pages)[0]);
  const go = (name) => { location.hash = name; setPage(name); };
  // A link to another page's address (#sessions/<id> from a request) opens that page.
  useEffect(() => {
    const follow = () => { const name = location.hash.slice(1).split('/')[0]; if (name in pages) setPage(name); };
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, [pages]);
  const Page = pages[page][1];
  return html`
    <header><h1>gw console</h1>
      ${admin.personal
        ? html`<span>Your own requests on this laptop: ${admin.name} (read-only)</span>`
        : html`<form method="post" action="/ui/logout"><span>Signed in as ${admin.name} (${admin.id}) </span><span class="tag" data-testid="role">${roleText(admin)}</span> <button type="submit">Sign out</button></form>`}</header>
    <nav aria-label="Console pages">${Object.entries(pages).map(([name, [label]]) => html`<button aria-current=${page === name ? 'page' : undefined} onClick=${() => go(name)}>${label}</button>`)}</nav>
    <${Page} personal=${admin.personal === true} admin=${admin} />`;
}

api('GET', '/admin/api/whoami').then((admin) => {
  setCsrf(admin.csrf);
  render(html`<${Console} admin=${admin} />`, document.getElementById('app'));
}, () => render(html`<${SignIn} />`, document.getElementById('app')));
