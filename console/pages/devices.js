// Device logins waiting (RFC 8628): approve one for a person, or deny it.
import { html, useState } from '/ui/vendor/preact-htm.js';
import { api, Problem, useLoad } from '../lib.js';
import { When } from './keys-format.js';

export function Devices() {
  const [{ data, error }, reload] = useLoad('/admin/api/devices');
  const [people] = useLoad('/admin/api/people');
  const [message, setMessage] = useState(null);
  const act = async (code, verb, person) => {
    try {
      await api('POST', `/admin/api/devices/${encodeURIComponent(code)}/${verb}`, verb === 'approve' ? { person } : {});
      setMessage(`${verb === 'approve' ? 'Approved' : 'Denied'} ${code}.`);
    } catch (caught) { setMessage(caught.message); }
    reload();
  };
  return html`
    <h2>Device logins waiting</h2>
    <${Problem} error=${error} />
    ${message && html`<p class="ok" role="status">${message}</p>`}
    ${data && data.length === 0 && html`<p>No login is waiting.</p>`}
    ${data && data.length > 0 && html`
      <table>
        <thead><tr><th scope="col">Code</th><th scope="col">Seen by the hub</th><th scope="col">Claimed by the device</th><th scope="col">Person</th><th scope="col">Decision</th></tr></thead>
        <tbody>${data.map((code) => html`<${DeviceRow} key=${code.user_code} code=${code} people=${people.data ?? []} act=${act} />`)}</tbody>
      </table>`}`;
}

function DeviceRow({ code, people, act }) {
  const [picked, setPerson] = useState('');
  // The people list may arrive after the row: until someone picks, the claimed email or the first person.
  const person = picked || code.claimed.email || people[0]?.email || '';
  const id = `person-${code.user_code}`;
  return html`<tr>
    <td><strong>${code.user_code}</strong></td>
    <td>from ${code.observed.address}<br />at <${When} at=${code.observed.at} /></td>
    <td class="claim">program: ${code.claimed.program || '(none)'}<br />computer: ${code.claimed.computer || '(none)'}${code.claimed.email ? html`<br />says it is ${code.claimed.email}` : ''}</td>
    <td><label for=${id}>Approve for</label>
      <select id=${id} value=${person} onChange=${(event) => setPerson(event.target.value)}>
        ${people.map((entry) => html`<option value=${entry.email}>${entry.email}</option>`)}
      </select></td>
    <td><button class="primary" onClick=${() => act(code.user_code, 'approve', person)}>Approve ${code.user_code}</button>
      ${' '}<button class="danger" onClick=${() => act(code.user_code, 'deny')}>Deny</button></td>
  </tr>`;
}
