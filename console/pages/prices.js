// Prices: the hub's own prices (`gw prices list`), which win over the bundled dataset; set one
// (USD per million tokens) or remove one. The Usage page's unpriced panel links here with the
// model filled in (#prices/<provider/model>). Changes run `gw prices set|remove` on the hub (the
// remote CLI), so the form refuses what the CLI refuses; only an admin changes prices.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { CommandOutput, Problem, adminOnly, useCommandJson, useConfirm, useHashPath } from '../lib.js';
import { option, useRunner } from './governance-shared.js';

const FIELDS = [['input', 'Input', 'input_mtok'], ['output', 'Output', 'output_mtok'], ['cache-read', 'Cache read', 'cache_read_mtok'], ['cache-write', 'Cache write', 'cache_write_mtok']];

const nameOf = (price) => `${price.provider}/${price.model}`;
const shown = (value) => (value === undefined || value === null ? '' : `$${value}`);

export function Prices({ admin }) {
  const [{ data, error }, reload] = useCommandJson(['prices', 'list']);
  const [, wanted] = useHashPath();
  const [run, exec] = useRunner();
  const [ask, confirmation] = useConfirm();
  const refusal = adminOnly(admin, 'prices');
  const set = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const argv = ['prices', 'set', String(form.get('model')).trim()];
    for (const [name] of FIELDS) if (String(form.get(name) ?? '').trim() !== '') argv.push(option(name, String(form.get(name)).trim()));
    if (await exec(argv)) reload();
  };
  const remove = (name) => ask({
    title: `Remove the price of ${name}`, detail: `Calls to ${name} are priced by the bundled dataset again, or recorded unpriced if it has none.`,
    action: `Remove price ${name}`, run: async () => { if (await exec(['prices', 'remove', name])) reload(); },
  });
  return html`<section class="prices-page">
    <h2>Prices</h2>
    <p class="hint">USD per million tokens. A price set here wins over the bundled dataset for calls from then on; past calls keep the price they were recorded with.</p>
    ${refusal && html`<p class="hint" data-testid="read-only">${refusal}</p>`}
    <${Problem} error=${error} />
    ${confirmation}
    ${data && (data.length === 0 ? html`<p>No prices of the hub's own: every model is priced by the bundled dataset (or unpriced).</p>` : html`
      <table aria-label="Prices"><thead><tr><th scope="col">Model</th>${FIELDS.map(([, label]) => html`<th scope="col" class="number">${label}</th>`)}<th scope="col"></th></tr></thead>
        <tbody>${data.map((price) => html`<tr><td>${nameOf(price)}</td>${FIELDS.map(([, , field]) => html`<td class="number">${shown(price[field])}</td>`)}
          <td><button class="danger" disabled=${refusal !== null} title=${refusal ?? undefined} onClick=${() => remove(nameOf(price))}>Remove price ${nameOf(price)}</button></td></tr>`)}</tbody></table>`)}
    <h3>Set a price</h3>
    <form class="inline" onSubmit=${set} aria-label="Set a price">
      <label>Model (provider/model)<input name="model" required value=${wanted} placeholder="my-vllm/llama-3.1-70b" size="24" /></label>
      ${FIELDS.map(([name, label]) => html`<label>${label} (USD)<input name=${name} type="number" step="any" min="0" size="7" required=${name === 'input' || name === 'output'} /></label>`)}
      <button class="primary" type="submit" disabled=${refusal !== null} title=${refusal ?? undefined}>Set price</button>
    </form>
    <${CommandOutput} run=${run} label="Price" />
  </section>`;
}
