// MCP servers: the ones gw's /mcp fronts (`gw mcp list`), each tested or removed in place, with
// what each offers (tools, resources, prompts: `gw mcp test NAME --json`, read by the gateway's own
// client code), and a form to add one. Lists and changes run the CLI on the hub (the remote CLI):
// the page refuses what the CLI refuses, and each change is an admin.change in the trail. Header
// values are write-only: the list shows a literal value as "(literal, hidden)".
import { html, useState } from '/ui/vendor/preact-htm.js';
import { CommandOutput, runCommand, useCommandJson, useConfirm } from '../lib.js';
import { AddMcpServer } from './mcp-add.js';
import { McpCatalog } from './mcp-catalog.js';

const headerText = (headers) => Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join(', ') || '-';

function ServerRow({ server, onRun, onRemove }) {
  return html`<tr>
    <td>${server.name}</td><td>${server.transport}</td><td class="mcp-target">${server.target}</td><td>${headerText({ ...server.headers, ...server.env })}</td>
    <td class="providers-actions"><button onClick=${() => onRun(['mcp', 'test', server.name])} aria-label=${`Test ${server.name}`}>Test</button>
      <button class="danger" onClick=${() => onRemove(server.name)} aria-label=${`Remove ${server.name}`}>Remove</button></td>
  </tr>`;
}

export function Mcp() {
  const [{ data, error }, reload] = useCommandJson(['mcp', 'list']);
  const [run, setRun] = useState(null);
  const [generation, setGeneration] = useState(0);
  const act = async (argv) => {
    setRun(null);
    try { setRun(await runCommand(argv)); } catch (caught) { setRun({ error: caught.message }); }
    if (argv[1] !== 'test') reload();
  };
  const [ask, confirmation] = useConfirm();
  const remove = (name) => ask({
    title: `Remove the MCP server ${name}`, detail: `Its tools leave /mcp, and its header values are deleted from the hub.`,
    action: `Remove MCP server ${name}`, run: () => act(['mcp', 'remove', name]),
  });
  const added = () => { reload(); setGeneration(generation + 1); };
  return html`<h2>MCP servers</h2>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${data && (data.length === 0 ? html`<p>No MCP servers yet: add one below, and agents reach its tools at <code>/mcp</code> with their gw key.</p>` : html`
      <table aria-label="MCP servers"><thead><tr><th scope="col">Name</th><th scope="col">Transport</th><th scope="col">URL or command</th><th scope="col">Headers</th><th scope="col">Actions</th></tr></thead>
        <tbody>${data.map((server) => html`<${ServerRow} server=${server} onRun=${act} onRemove=${remove} />`)}</tbody></table>`)}
    ${confirmation}
    <${CommandOutput} run=${run} label="MCP command" />
    ${data && data.length > 0 && html`<h2>What each server offers</h2>
      ${data.map((server) => html`<${McpCatalog} key=${`${server.name}-${generation}`} name=${server.name} />`)}`}
    <${AddMcpServer} onAdded=${added} />`;
}
