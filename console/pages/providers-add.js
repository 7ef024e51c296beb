// The "Add a provider" form: `gw providers add NAME --kind … --base-url … --api-key=…` run on the
// hub through the remote CLI, so it refuses what the CLI refuses, with the CLI's message. The key
// is write-only: sent once in the command, never read back (listings say `set`), and the field is
// emptied once the hub has it. The form takes the key itself, never `env:VARIABLE`: the hub refuses
// to have its environment named remotely (docs/decisions.md), so the form says so before sending.
import { html, useEffect, useState } from '/ui/vendor/preact-htm.js';
import { CommandOutput, runCommand } from '../lib.js';

/** The choices an option of `gw providers add --help` lists, e.g. --kind's: the CLI's own list. */
function choicesOf(help, option) {
  const flat = help.replace(/\s+/g, ' ');
  const found = flat.match(new RegExp(`${option} <[a-z-]+> .*?\\(choices: ([^)]*)\\)`));
  return found ? [...found[1].matchAll(/"([^"]+)"/g)].map((match) => match[1]) : [];
}

/** The argv of `gw providers add` for what the form holds; empty fields are left to the CLI's defaults. */
function addCommand(form) {
  const value = (name) => String(form.get(name) ?? '').trim();
  const argv = ['providers', 'add', value('name')];
  if (value('kind')) argv.push(`--kind=${value('kind')}`);
  if (value('preset')) argv.push(`--preset=${value('preset')}`);
  if (value('base_url')) argv.push(`--base-url=${value('base_url')}`);
  if (value('api_version')) argv.push(`--api-version=${value('api_version')}`);
  if (value('api_key')) argv.push(`--api-key=${value('api_key')}`);
  return argv;
}

/** What the form says of a key that names the hub's environment, instead of sending it. */
const ENV_KEY = 'The API key field takes the key itself. A key held in the hub\'s environment is named in the hub\'s shell: gw providers add NAME --api-key-env VARIABLE.';

export function AddProvider({ onAdded }) {
  const [choices, setChoices] = useState({ kinds: [], presets: [] });
  const [run, setRun] = useState(null);
  useEffect(() => {
    runCommand(['providers', 'add', '--help']).then((help) => setChoices({ kinds: choicesOf(help.stdout, '--kind'), presets: choicesOf(help.stdout, '--preset') }), () => undefined);
  }, []);
  const add = async (event) => {
    event.preventDefault();
    const formElement = event.target;
    if (/^env:/i.test(String(new FormData(formElement).get('api_key') ?? '').trim())) { setRun({ error: ENV_KEY }); return; }
    try {
      const result = await runCommand(addCommand(new FormData(formElement)));
      setRun(result);
      if (result.exit_code === 0) { formElement.reset(); onAdded(); }
    } catch (caught) { setRun({ error: caught.message }); }
  };
  const options = (names) => names.map((name) => html`<option value=${name}>${name}</option>`);
  return html`<h2>Add a provider</h2>
    <form class="inline providers-add" aria-label="Add a provider" onSubmit=${add} autocomplete="off">
      <label>Name<input name="name" required size="12" placeholder="e.g. lab" /></label>
      <label>Kind<select name="kind" aria-label="Kind"><option value="">(from the preset)</option>${options(choices.kinds)}</select></label>
      <label>Preset<select name="preset" aria-label="Preset"><option value="">(none)</option>${options(choices.presets)}</select></label>
      <label>Base URL<input name="base_url" size="30" placeholder="https://…/v1 (default: the kind's)" /></label>
      <label>API key<input name="api_key" type="password" size="22" autocomplete="new-password" placeholder="sk-… (the key itself)" /></label>
      <label>API version<input name="api_version" size="10" placeholder="Azure only" /></label>
      <button class="primary" type="submit">Add provider</button>
    </form>
    <${CommandOutput} run=${run} label="Add a provider" />
    <p class="hint">The key is written once and never shown again (the list says <code>set</code>); the audit record hides it. A provider with the same name is replaced.</p>`;
}
