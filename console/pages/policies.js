// Policies per scope (*, team:NAME, key:vk_…): what is in force, change a scope's policy (fields
// left empty stay as they are), remove it, and which policy a sample call meets. Reads and
// changes are the CLI's own `gw policy …` commands run on the hub.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { CommandOutput, Problem, useCommandJson, useConfirm } from '../lib.js';
import { ScopePicker, TeamPicker, option, useRunner } from './governance-shared.js';

// The form's fields, as `gw policy set` names them; "none" clears a list and 0 a number.
const LISTS = [['allow-models', 'Allow models'], ['deny-models', 'Deny models'], ['allow-providers', 'Allow providers'], ['deny-providers', 'Deny providers'], ['allow-operations', 'Allow operations'], ['deny-operations', 'Deny operations']];
const NUMBERS = [['max-tokens', 'Max tokens'], ['rpm', 'Requests/min'], ['tpm', 'Tokens/min']];

/** A policy's rules in words: `deny_models=gpt-*  requests_per_minute=10`. */
function rulesOf(policy) {
  return Object.entries(policy).filter(([field]) => field !== 'scope' && field !== 'mode')
    .map(([field, value]) => `${field}=${Array.isArray(value) ? value.join(',') : value}`).join('  ') || '(no rules)';
}

export function Policies() {
  const [{ data, error }, reload] = useCommandJson(['policy', 'list']);
  const [scope, setScope] = useState('');
  const [run, exec] = useRunner();
  const [check, execCheck] = useRunner();
  const set = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const argv = ['policy', 'set', scope];
    if (form.get('mode')) argv.push(option('mode', form.get('mode')));
    for (const [name] of [...LISTS, ...NUMBERS]) if (String(form.get(name) ?? '').trim() !== '') argv.push(option(name, String(form.get(name)).trim()));
    if (await exec(argv)) { event.target.reset(); reload(); }
  };
  const [ask, confirmation] = useConfirm();
  const remove = (target) => ask({
    title: `Remove the policy of ${target}`, detail: `Its rules (models, providers, limits) stop applying to ${target}.`,
    action: `Remove policy ${target}`, run: async () => { if (await exec(['policy', 'remove', target])) reload(); },
  });
  const test = (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    execCheck(['policy', 'test', option('team', form.get('team')), option('model', form.get('model'))]);
  };
  return html`
    <h2>Policies</h2>
    <p class="hint">Per scope: everyone (*), a team, or a key. Models, providers and operations allowed or denied (globs, comma-separated), the largest max_tokens, and rate limits.</p>
    <${Problem} error=${error} />
    ${confirmation}
    ${data && (data.length === 0 ? html`<p>No policies: every model, provider and operation is allowed.</p>` : html`
      <table aria-label="Policies in force"><thead><tr><th scope="col">Scope</th><th scope="col">Mode</th><th scope="col">Rules</th><th scope="col"></th></tr></thead>
        <tbody>${data.map((policy) => html`<tr><td>${policy.scope}</td><td>${policy.mode ?? 'enforce'}</td><td><code>${rulesOf(policy)}</code></td>
          <td><button class="danger" onClick=${() => remove(policy.scope)}>Remove policy ${policy.scope}</button></td></tr>`)}</tbody></table>`)}
    <h3>Change a scope's policy</h3>
    <form class="governance-grid" onSubmit=${set} aria-label="Change a policy">
      <${ScopePicker} kinds=${['*', 'team', 'key']} value=${scope} onChange=${setScope} />
      <label>Mode<select name="mode"><option value="">(unchanged)</option><option value="enforce">enforce (refuse)</option><option value="shadow">shadow (record only)</option></select></label>
      ${LISTS.map(([name, label]) => html`<label>${label}<input name=${name} placeholder="unchanged" /></label>`)}
      ${NUMBERS.map(([name, label]) => html`<label>${label}<input name=${name} inputmode="numeric" placeholder="unchanged" size="8" /></label>`)}
      <div><button class="primary" type="submit">Save policy</button></div>
    </form>
    <p class="hint">Empty fields stay as they are; "none" clears a list, 0 clears a number.</p>
    <${CommandOutput} run=${run} />
    <h3>Test a call</h3>
    <form class="inline" onSubmit=${test} aria-label="Test a policy">
      <${TeamPicker} />
      <label>Model<input name="model" required placeholder="openai/gpt-4o" /></label>
      <button type="submit">Test policy</button>
    </form>
    <${CommandOutput} run=${check} />`;
}
