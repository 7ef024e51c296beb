// DLP rules in a scope (*, team:NAME, key:vk_…): the rules in force there and their actions,
// set an action, add or remove a custom pattern, turn response scanning on or off, and test a
// text. Reads and changes are the CLI's own `gw dlp …` commands run on the hub; the test prints
// which rules fire and what they would do, never the matches.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { CommandOutput, Problem, useCommandJson, useConfirm } from '../lib.js';
import { ScopePicker, TeamPicker, option, useRunner } from './governance-shared.js';

const ACTIONS = ['block', 'redact', 'log', 'off'];

export function Dlp() {
  const [scope, setScope] = useState('*');
  const [{ data, error }, reload] = useCommandJson(['dlp', 'list', option('scope', scope)], [scope]);
  const [run, exec] = useRunner();
  const [check, execCheck, setCheck] = useRunner();
  const change = async (argv) => { if (await exec([...argv, option('scope', scope)])) reload(); };
  const [ask, confirmation] = useConfirm();
  const removeRule = (id) => ask({
    title: `Remove the rule ${id}`, detail: `Its pattern is deleted: requests are no longer checked for it in ${scope}.`,
    action: `Remove rule ${id}`, run: () => change(['dlp', 'remove', id]),
  });
  const setAction = (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    change(['dlp', 'set', form.get('rule'), form.get('action')]);
  };
  const add = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const argv = ['dlp', 'add', form.get('id'), option('pattern', form.get('pattern')), option('action', form.get('action'))];
    if (form.get('ignore_case')) argv.push('--ignore-case');
    if (await exec([...argv, option('scope', scope)])) { event.target.reset(); reload(); }
  };
  const test = (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const text = String(form.get('text'));
    // A sample that starts with "-" would read as an option; a leading space changes no finding.
    setCheck(null);
    execCheck(['dlp', 'test', text.startsWith('-') ? ` ${text}` : text, option('team', form.get('team'))]);
  };
  return html`
    <h2>DLP rules</h2>
    <p class="hint">What gw looks for in requests (secrets, personal data, your own patterns) and what it does on a match: block (403), redact, log, or off. A scope's actions override everyone's (*); a key's override its team's.</p>
    <form class="inline" aria-label="DLP scope" onSubmit=${(event) => event.preventDefault()}>
      <${ScopePicker} kinds=${['*', 'team', 'key']} value=${scope} onChange=${setScope} label="Rules in force for" />
    </form>
    <${Problem} error=${error} />
    ${confirmation}
    ${data && html`
      <table aria-label="DLP rules in force"><thead><tr><th scope="col">Rule</th><th scope="col">Kind</th><th scope="col">Action</th><th scope="col">What it finds</th><th scope="col"></th></tr></thead>
        <tbody>${data.rules.map((rule) => html`<tr><td>${rule.id}</td><td>${rule.category}</td><td class=${rule.action === 'block' ? 'error' : ''}>${rule.action}</td><td>${rule.description}</td>
          <td>${rule.category === 'custom' && html`<button class="danger" onClick=${() => removeRule(rule.id)}>Remove rule ${rule.id}</button>`}</td></tr>`)}</tbody></table>
      <p>Response scanning: ${data.output_scan ? 'on' : 'off'} <button onClick=${() => change(['dlp', 'output', data.output_scan ? 'off' : 'on'])}>Turn response scanning ${data.output_scan ? 'off' : 'on'}</button></p>`}
    <h3>Set a rule's action in ${scope}</h3>
    <form class="inline" onSubmit=${setAction} aria-label="Set a rule's action">
      <label>Rule<select name="rule">${(data?.rules ?? []).map((rule) => html`<option value=${rule.id}>${rule.id}</option>`)}</select></label>
      <label>Action<select name="action">${ACTIONS.map((action) => html`<option value=${action}>${action}</option>`)}</select></label>
      <button class="primary" type="submit">Set action</button>
    </form>
    <h3>Add a custom rule in ${scope}</h3>
    <form class="inline" onSubmit=${add} aria-label="Add a custom rule">
      <label>Rule id<input name="id" required placeholder="acme_order_id" size="14" /></label>
      <label>Pattern (RE2)<input name="pattern" required placeholder="ACME-[0-9]{6}" /></label>
      <label>Action<select name="action">${ACTIONS.slice(0, 3).map((action) => html`<option value=${action}>${action}</option>`)}</select></label>
      <label class="check"><span><input name="ignore_case" type="checkbox" /> ignore case</span></label>
      <button class="primary" type="submit">Add rule</button>
    </form>
    <${CommandOutput} run=${run} />
    <h3>Test this text</h3>
    <form onSubmit=${test} aria-label="Test this text" class="governance-test">
      <label>Text to test<textarea name="text" rows="4" maxLength="4096" required autocomplete="off" spellcheck="false"></textarea></label>
      <div class="inline"><${TeamPicker} /><button type="submit">Test text</button></div>
    </form>
    <p class="hint">Which rules fire and what they would do; the matches themselves are never shown or recorded.</p>
    <${CommandOutput} run=${check} />`;
}
