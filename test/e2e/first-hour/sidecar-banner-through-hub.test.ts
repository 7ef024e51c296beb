// A sidecar whose hub serves only the mock suggests models that go through the hub: its banner
// names hub/mock/echo, not mock/echo, which the sidecar's own mock answers and the hub never sees
// (issue 40, deliverable 1). The line's model, called on the sidecar, lands in the hub's trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_KEYCHAIN, PERSON, runChecked, startHubRig, startLogin, type HubRig } from '../device-login/support.js';
import { makeHome, type GatewayProcess } from '../../support/gateway-process.js';
import { readAudit, waitUntil } from '../helpers.js';

let rig: HubRig;
let sidecar: GatewayProcess;
beforeAll(async () => {
  // No provider keys or base URLs: the hub serves only its mock.
  const none = { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined, GEMINI_API_KEY: undefined, GOOGLE_GEMINI_BASE_URL: undefined };
  rig = await startHubRig({ env: none });
  const laptop = await makeHome('gw-laptop-');
  const login = startLogin(rig.hub.url, laptop);
  await runChecked(['device', 'approve', await login.code, '--person', PERSON], rig.hub.home);
  expect(await login.exited).toBe(0);
  sidecar = await rig.jar.start({ home: laptop, env: { ...NO_KEYCHAIN, GW_LOG_LEVEL: 'warn' } });
}, 60_000);
afterAll(async () => { await rig?.close(); });

describe('a sidecar of a mock-only hub', () => {
  it('names hub/mock/echo in its lines, and a call to it is served by the hub', async () => {
    const claude = /^ {2}Claude Code +.* --model (\S+)$/m.exec(sidecar.stdout())?.[1];
    expect(claude, sidecar.stdout()).toBe('hub/mock/echo');
    expect(sidecar.stdout()).not.toMatch(/ (--model|-m) mock\/echo\b/);
    const answer = await fetch(`${sidecar.url}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: claude, messages: [{ role: 'user', content: 'through the hub' }] }),
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
    await waitUntil(async () => (await readAudit(rig.hub.home)).some((line) => line.kind === 'request' && JSON.stringify(line).includes(PERSON)), { timeoutMs: 10_000, what: 'the hub\'s record of the call' });
  }, 30_000);
});
