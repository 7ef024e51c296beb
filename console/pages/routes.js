// Routing rules: a model name clients use → weighted targets with retries and fallback. What is
// in force, add or replace a rule, remove one, and `routes test`: which rule a model name hits
// and the order its targets are tried in. All through the CLI's own `gw routes …` on the hub.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { CommandOutput, Problem, useCommandJson, useConfirm } from '../lib.js';
import { TeamPicker, option, useRunner } from './governance-shared.js';

/** `mock/echo (weight 1) | mock/other (weight 2)`, as `gw routes list` prints them. */
const targetsOf = (rule) => rule.targets.map((target) => `${target.model} (weight ${target.weight ?? 1}${target.timeout_ms ? `, ${target.timeout_ms} ms` : ''}${target.key ? ', own key' : ''})`).join(' | ');

export function Routes() {
  const [{ data, error }, reload] = useCommandJson(['routes', 'list']);
  const [run, exec] = useRunner();
  const [check, execCheck] = useRunner();
  const add = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const targets = String(form.get('targets')).split('\n').map((line) => line.trim()).filter((line) => line !== '');
    const argv = ['routes', 'add', String(form.get('name')).trim(), ...targets.map((target) => option('target', target)), option('retries', form.get('retries') || '0')];
    if (!form.get('fallback')) argv.push('--no-fallback');
    if (await exec(argv)) { event.target.reset(); reload(); }
  };
  const [ask, confirmation] = useConfirm();
  const remove = (name) => ask({
    title: `Remove the routing rule ${name}`, detail: `Calls to the model name ${name} stop going to its targets.`,
    action: `Remove route ${name}`, run: async () => { if (await exec(['routes', 'remove', name])) reload(); },
  });
  const test = (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const argv = ['routes', 'test', String(form.get('model')).trim()];
    if (form.get('team')) argv.push(option('team', form.get('team')));
    if (String(form.get('session')).trim()) argv.push(option('session', String(form.get('session')).trim()));
    execCheck(argv);
  };
  return html`
    <h2>Routing rules</h2>
    <p class="hint">A model name clients send, and the provider/model targets it goes to: the first pick is drawn by weight, then retries, then the other targets on 429, 5xx, time-out or a connection error.</p>
    <${Problem} error=${error} />
    ${confirmation}
    ${data && (data.length === 0 ? html`<p>No routing rules: model names go to their provider directly.</p>` : html`
      <table aria-label="Routing rules in force"><thead><tr><th scope="col">Name</th><th scope="col">Targets</th><th scope="col">Retries</th><th scope="col">Fallback</th><th scope="col"></th></tr></thead>
        <tbody>${data.map((rule) => html`<tr><td>${rule.name}</td><td>${targetsOf(rule)}</td><td>${rule.retries ?? 0}</td><td>${rule.fallback === false ? 'no' : 'yes'}</td>
          <td><button class="danger" onClick=${() => remove(rule.name)}>Remove route ${rule.name}</button></td></tr>`)}</tbody></table>`)}
    <h3>Add or replace a rule</h3>
    <form class="inline" onSubmit=${add} aria-label="Add a routing rule">
      <label>Model name<input name="name" required placeholder="fast" size="14" /></label>
      <label>Targets, one a line<textarea name="targets" rows="3" required placeholder="openai/gpt-4o-mini,weight=2\nanthropic/claude-haiku-4-5"></textarea></label>
      <label>Retries<input name="retries" inputmode="numeric" size="3" placeholder="0" /></label>
      <label class="check"><span><input name="fallback" type="checkbox" defaultChecked=${true} /> fall back</span></label>
      <button class="primary" type="submit">Save route</button>
    </form>
    <p class="hint">A target is provider/model, optionally with ,weight=N and ,timeout=MS.</p>
    <${CommandOutput} run=${run} />
    <h3>Routes test</h3>
    <form class="inline" onSubmit=${test} aria-label="Routes test">
      <label>Model<input name="model" required placeholder="fast" size="14" /></label>
      <${TeamPicker} optional=${true} />
      <label>Session id<input name="session" placeholder="(none)" size="12" /></label>
      <button type="submit">Test route</button>
    </form>
    <${CommandOutput} run=${check} />`;
}
