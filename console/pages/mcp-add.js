// The "Add an MCP server" form: `gw mcp add NAME --url … --transport … --header=NAME=VALUE` run on
// the hub through the remote CLI (a server over stdio runs a program on the hub: the shell only).
// Header values are write-only: sent once, never read back, the fields emptied once the hub has them.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { CommandOutput, runCommand } from '../lib.js';

function addCommand(form, headerCount) {
  const value = (name) => String(form.get(name) ?? '').trim();
  const argv = ['mcp', 'add', value('name'), `--url=${value('url')}`, `--transport=${value('transport') || 'http'}`];
  for (let index = 0; index < headerCount; index += 1) {
    const header = value(`header_name_${index}`);
    if (header) argv.push(`--header=${header}=${value(`header_value_${index}`)}`);
  }
  return argv;
}

export function AddMcpServer({ onAdded }) {
  const [headers, setHeaders] = useState(1);
  const [run, setRun] = useState(null);
  const add = async (event) => {
    event.preventDefault();
    const formElement = event.target;
    try {
      const result = await runCommand(addCommand(new FormData(formElement), headers));
      setRun(result);
      if (result.exit_code === 0) { formElement.reset(); setHeaders(1); onAdded(); }
    } catch (caught) { setRun({ error: caught.message }); }
  };
  return html`<h2>Add an MCP server</h2>
    <form class="mcp-add" aria-label="Add an MCP server" onSubmit=${add} autocomplete="off">
      <div class="inline">
        <label>Name<input name="name" required size="14" placeholder="e.g. notes" /></label>
        <label>URL<input name="url" required size="36" placeholder="https://…/mcp" /></label>
        <label>Transport<select name="transport" aria-label="Transport"><option value="http">streamable HTTP</option><option value="sse">SSE (older)</option></select></label>
      </div>
      ${Array.from({ length: headers }, (_, index) => html`<div class="inline">
        <label>Header name<input name=${`header_name_${index}`} size="16" placeholder="Authorization" /></label>
        <label>Header value<input name=${`header_value_${index}`} type="password" size="30" autocomplete="new-password" placeholder="Bearer …" /></label>
      </div>`)}
      <div class="inline"><button type="button" onClick=${() => setHeaders(headers + 1)}>Another header</button>
        <button class="primary" type="submit">Add MCP server</button></div>
    </form>
    <${CommandOutput} run=${run} label="Add an MCP server" />
    <p class="hint">Header values are written once and never shown again; the audit record hides them. Its tools become <code>NAME__tool</code> at <code>/mcp</code>.</p>`;
}
