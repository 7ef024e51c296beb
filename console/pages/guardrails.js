// External guardrails (`gw guardrails list|add|remove`, docs/guardrails.md): the ones gw calls
// before and after calls, each removable in place, and a form to add one. Changes run the CLI on
// the hub (the remote CLI), so the page refuses what the CLI refuses and each change is an
// admin.change in the trail. A credential is write-only: sent once, listed as "(set, hidden)".
import { html, useState } from '/ui/vendor/preact-htm.js';
import { CommandOutput, runCommand, useCommandJson } from '../lib.js';

const KINDS = ['http', 'presidio', 'openai-moderation', 'lakera', 'bedrock'];

function addCommand(form) {
  const value = (name) => String(form.get(name) ?? '').trim();
  const argv = ['guardrails', 'add', value('name'), `--kind=${value('kind')}`, `--url=${value('url')}`, `--scope=${value('scope') || 'global'}`,
    `--when=${value('when')}`, `--timeout-ms=${value('timeout') || '2000'}`, `--on-error=${value('on_error')}`];
  if (value('credential')) argv.push(`--credential=${value('credential')}`);
  for (const pair of value('options').split(/\s+/).filter(Boolean)) argv.push(`--option=${pair}`);
  return argv;
}

function AddGuardrail({ onAdded }) {
  const [run, setRun] = useState(null);
  const add = async (event) => {
    event.preventDefault();
    const formElement = event.target;
    try {
      const result = await runCommand(addCommand(new FormData(formElement)));
      setRun(result);
      if (result.exit_code === 0) { formElement.reset(); onAdded(); }
    } catch (caught) { setRun({ error: caught.message }); }
  };
  return html`<h2>Add a guardrail</h2>
    <form class="guardrail-add" aria-label="Add a guardrail" onSubmit=${add} autocomplete="off">
      <div class="inline">
        <label>Name<input name="name" required size="14" placeholder="e.g. pii-check" /></label>
        <label>Kind<select name="kind" aria-label="Kind">${KINDS.map((kind) => html`<option value=${kind}>${kind}</option>`)}</select></label>
        <label>URL<input name="url" required size="36" placeholder="https://guard.example/judge" /></label>
      </div>
      <div class="inline">
        <label>Scope<input name="scope" size="16" placeholder="global, team:NAME, key:vk_…" /></label>
        <label>When<select name="when" aria-label="When"><option value="pre">before the call</option><option value="post">on the answer</option><option value="both">both</option></select></label>
        <label>Time-out (ms)<input name="timeout" size="6" placeholder="2000" /></label>
        <label>On error<select name="on_error" aria-label="On error"><option value="open">fail open</option><option value="closed">fail closed</option></select></label>
      </div>
      <div class="inline">
        <label>Credential<input name="credential" type="password" size="24" autocomplete="new-password" placeholder="sent as Bearer" /></label>
        <label>Options<input name="options" size="36" placeholder="guardrail_id=… region=… (space-separated)" /></label>
        <button class="primary" type="submit">Add guardrail</button>
      </div>
    </form>
    <${CommandOutput} run=${run} label="Add a guardrail" />
    <p class="hint">A credential is written once and never shown again; the audit record hides it.</p>`;
}

export function Guardrails() {
  const [{ data, error }, reload] = useCommandJson(['guardrails', 'list']);
  const [run, setRun] = useState(null);
  const remove = async (name) => {
    setRun(null);
    try { setRun(await runCommand(['guardrails', 'remove', name])); } catch (caught) { setRun({ error: caught.message }); }
    reload();
  };
  return html`<h2>Guardrails</h2>
    ${error && html`<p class="error" role="alert">${error}</p>`}
    ${data && (data.length === 0 ? html`<p>No guardrails yet: add one below, and gw calls it on every call of its scope.</p>` : html`
      <table aria-label="Guardrails"><thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">URL</th><th scope="col">Scope</th><th scope="col">When</th><th scope="col">Time-out</th><th scope="col">On error</th><th scope="col">Credential</th><th scope="col">Actions</th></tr></thead>
        <tbody>${data.map((guardrail) => html`<tr>
          <td>${guardrail.name}</td><td>${guardrail.kind}</td><td>${guardrail.url}</td><td>${guardrail.scope}</td><td>${guardrail.when}</td>
          <td>${guardrail.timeout_ms} ms</td><td>${guardrail.on_error}</td><td>${guardrail.credential || '-'}</td>
          <td><button class="danger" onClick=${() => remove(guardrail.name)} aria-label=${`Remove ${guardrail.name}`}>Remove</button></td>
        </tr>`)}</tbody></table>`)}
    <${CommandOutput} run=${run} label="Guardrail command" />
    <${AddGuardrail} onAdded=${reload} />`;
}
