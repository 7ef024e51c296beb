// Settings: the hub's settings as `gw settings get` lists them, grouped by what a team lead looks
// for (sign-in through OpenID Connect, who may use the console, how people get in), each with what
// it means and, for an admin, a field to change it (POST /admin/api/settings/NAME, the checks of
// `gw settings set --hub`). Secrets are never shown: the page says whether one is set.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { Problem, adminOnly, api, useLoad } from '../lib.js';

const GROUPS = [
  ['Sign-in through OpenID Connect', ['public_url', 'oidc_issuer', 'oidc_client_id', 'oidc_client_secret', 'oidc_verifies_email']],
  ['Who may use the console', ['admin_emails', 'admin_group', 'role_groups', 'oidc_group_teams']],
  ['How people and tools get in', ['enforce_auth', 'default_team', 'device_login', 'personal_token_days', 'access_token_minutes', 'allow_direct_keys', 'live_key_rotation_seconds']],
];

/** Set in the hub's own shell only (src/admin/remote-settings.ts): a path, a variable or the audit sink. */
const SHELL_ONLY = new Set(['oidc_client_secret', 'audit_sink', 'audit_sink_token', 'audit_witness']);

function Value({ setting }) {
  if (setting.secret) return setting.value === 'none' ? html`<span data-testid="secret">not set</span>` : html`<span data-testid="secret">set</span> <span class="hint">(in the hub's environment)</span>`;
  return html`<code>${setting.value}</code>`;
}

function SettingRow({ setting, refusal, onSaved, say }) {
  const save = async (event) => {
    event.preventDefault();
    const value = String(new FormData(event.target).get('value')).trim();
    try {
      const answer = await api('POST', `/admin/api/settings/${setting.name}`, { value });
      say({ text: `${setting.name} = ${answer.value}${answer.notes ? `; ${answer.notes.join('; ')}` : ''}` });
      onSaved();
    } catch (caught) { say({ error: caught.message }); }
  };
  const editable = refusal === null && !SHELL_ONLY.has(setting.name);
  return html`<tr data-setting=${setting.name}><th scope="row"><code>${setting.name}</code></th><td><${Value} setting=${setting} /></td><td class="hint">${setting.description}</td>
    <td>${editable
      ? html`<form class="inline setting-edit" onSubmit=${save} aria-label=${`Change ${setting.name}`}><input name="value" aria-label=${`New value of ${setting.name}`} required size="14" /><button type="submit">Save</button></form>`
      : html`<span class="hint">${refusal === null ? 'set in the hub\'s shell' : 'read-only'}</span>`}</td></tr>`;
}

export function Settings({ admin }) {
  const [{ data, error }, reload] = useLoad('/admin/api/settings');
  const [message, say] = useState(null);
  const refusal = adminOnly(admin, 'settings');
  const grouped = new Set(GROUPS.flatMap(([, names]) => names));
  const groups = [...GROUPS, ['Other', (data ?? []).map((setting) => setting.name).filter((name) => !grouped.has(name))]];
  const byName = new Map((data ?? []).map((setting) => [setting.name, setting]));
  return html`<section class="settings-page">
    <h2>Settings</h2>
    <p class="hint">What <code>gw settings get</code> lists on the hub. A change takes effect within a second on every instance (a few settings at the next start, as their text says).</p>
    ${refusal && html`<p class="hint" data-testid="read-only">${refusal}</p>`}
    ${message?.text && html`<p role="status">${message.text}</p>`}
    <${Problem} error=${message?.error ?? error} />
    ${data && groups.map(([title, names]) => html`<h3>${title}</h3><table aria-label=${title}><tbody>
      ${names.filter((name) => byName.has(name)).map((name) => html`<${SettingRow} key=${name} setting=${byName.get(name)} refusal=${refusal} onSaved=${reload} say=${say} />`)}</tbody></table>`)}
  </section>`;
}
