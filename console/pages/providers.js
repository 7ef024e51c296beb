// Providers: the ones gw uses (`gw providers list`), each tested or removed in place, a form to add
// one, and their health from the trail. Lists and changes run the CLI on the hub (the remote CLI),
// so the page refuses what the CLI refuses and each change is an admin.change in the trail. Keys
// are write-only: the list says how a key is held (`set`, `env:VARIABLE`, `none`), never the key.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { CommandOutput, runCommand, useCommandJson, useConfirm, useLoad } from '../lib.js';
import { listedState } from './provider-state.js';
import { AddProvider } from './providers-add.js';
import { ProviderHealth } from './providers-health.js';

function ProviderRow({ row, health, onRun, onRemove }) {
  const state = listedState(row.in_use, health);
  return html`<tr>
    <td>${row.name}</td><td>${row.kind}${row.preset ? html` <span class="hint">(${row.preset})</span>` : ''}</td>
    <td class="providers-url">${row.base_url}</td><td>${row.source}</td><td><code>${row.key}</code></td>
    <td class=${state.level === 'none' ? undefined : state.level} data-testid=${`status-${row.name}`}>${state.text}</td>
    <td class="providers-actions"><button onClick=${() => onRun(['providers', 'test', row.name])} aria-label=${`Test ${row.name}`}>Test</button>
      ${row.source === 'state' && html` <button class="danger" onClick=${() => onRemove(row.name)} aria-label=${`Remove ${row.name}`}>Remove</button>`}</td>
  </tr>`;
}

export function Providers() {
  const [{ data, error }, reload] = useCommandJson(['providers', 'list']);
  // Whether a provider in use answers: its calls over the last hour, from the trail.
  const [health] = useLoad('/admin/api/providers/health?window=1h');
  const healthOf = (name) => (health.data?.providers ?? []).find((item) => item.provider === name);
  const [run, setRun] = useState(null);
  const act = async (argv) => {
    setRun(null);
    try { setRun({ ...(await runCommand(argv)), argv }); } catch (caught) { setRun({ error: caught.message }); }
    if (argv[1] !== 'test') reload();
  };
  const [ask, confirmation] = useConfirm();
  const remove = (name) => ask({
    title: `Remove the provider ${name}`, detail: `Its key is deleted from the hub, and its models stop answering.`,
    action: `Remove provider ${name}`, run: () => act(['providers', 'remove', name]),
  });
  return html`<h2>Providers</h2>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${data && html`<table aria-label="Providers"><thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Base URL</th><th scope="col">Source</th><th scope="col">Key</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
      <tbody>${data.map((row) => html`<${ProviderRow} row=${row} health=${healthOf(row.name)} onRun=${act} onRemove=${remove} />`)}</tbody></table>`}
    ${confirmation}
    <${CommandOutput} run=${run} label="Provider command" />
    <p class="hint">Providers from the hub's environment and the built-in mock are listed too; change those in the shell that runs gw serve.</p>
    <${AddProvider} onAdded=${reload} />
    <${ProviderHealth} />`;
}
