// What one MCP server offers through gw's /mcp: its tools, resources and prompts, as the gateway
// discovers them (`gw mcp test NAME --json` on the hub), under the names agents use at /mcp.
import { html } from '/ui/vendor/preact-htm.js';
import { useCommandJson } from '../lib.js';

function Listing({ title, rows, empty }) {
  return html`<h4>${title} (${rows.length})</h4>
    ${rows.length === 0 ? html`<p class="hint">${empty}</p>` : html`<ul class="mcp-list">${rows.map(([name, description]) => html`<li><code>${name}</code>${description ? html` <span class="hint">${description}</span>` : ''}</li>`)}</ul>`}`;
}

export function McpCatalog({ name }) {
  const [{ data, error }] = useCommandJson(['mcp', 'test', name], [name]);
  const prompt = (entry) => `${entry.gateway_name}(${entry.arguments.map((argument) => `${argument.name}${argument.required ? '' : '?'}`).join(', ')})`;
  return html`<section class="card mcp-catalog" aria-label=${`What ${name} offers`}>
    <h3>${name}</h3>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${!data && !error && html`<p class="hint">Connecting…</p>`}
    ${data && html`<p class="hint">Connected in ${data.connect_ms} ms, listed in ${data.list_ms} ms.</p>
      <div class="mcp-columns">
        <div><${Listing} title="Tools" rows=${data.tools.map((tool) => [tool.gateway_name, tool.description])} empty="No tools." /></div>
        <div><${Listing} title="Resources" rows=${[...data.resources.map((resource) => [resource.uri, resource.description || resource.name]), ...data.resource_templates.map((template) => [template.uri_template, template.description || template.name])]} empty="No resources." /></div>
        <div><${Listing} title="Prompts" rows=${data.prompts.map((entry) => [prompt(entry), entry.description])} empty="No prompts." /></div>
      </div>`}
  </section>`;
}
