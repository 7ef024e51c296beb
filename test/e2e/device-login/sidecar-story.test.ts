// The design card's main story with two real `gw serve` processes: gw login
// against the hub (approved with gw device approve), the sidecar started from
// the stored token, and the official SDKs calling it with no credential. The
// providers see their own keys, never the atu- token, the sidecar's session
// credential or the team's live key;
// both audit chains verify and name the person. Then the faults: a foreign
// Host, a cross-origin POST, a rotated key, the hub down, a revoked token.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup as runGw, type GatewayProcess } from '../../support/gateway-process.js';
import { readAudit, sleep, waitUntil } from '../helpers.js';
import { NO_KEYCHAIN, PERSON, PROVIDER_KEYS, TEAM, everythingSent, liveKeysOf, runChecked, startHubRig, startLogin, type HubRig } from './support.js';

let rig: HubRig;
let sidecar: GatewayProcess;
let laptop: string;
let token: string;

beforeAll(async () => {
  rig = await startHubRig();
  laptop = path.join(rig.hub.home, '..', `${path.basename(rig.hub.home)}-laptop`);
}, 60_000);

afterAll(async () => { await rig?.close(); });

const chat = (base: string, model = 'gpt-4o-mini', content = 'hello') => fetch(`${base}/v1/chat/completions`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, messages: [{ role: 'user', content }] }),
});

describe('gw login, then gw serve as a sidecar', () => {
  it('logs in with device login: code on stderr, approved by the hub admin, token in the 0600 file because no keychain answers', async () => {
    const login = startLogin(rig.hub.url, laptop, NO_KEYCHAIN);
    const code = await login.code;
    const approved = await runChecked(['device', 'approve', code, '--person', PERSON], rig.hub.home);
    expect(approved).toContain(`approved ${code} for ${PERSON}`);
    expect(await login.exited).toBe(0);
    expect(login.stderr()).toMatch(/no keychain answered .*plain text at .*login\.json \(mode 0600\)/);
    expect(login.stderr()).toContain(`Logged in to ${rig.hub.url} as ${PERSON} (team ${TEAM})`);
    const file = path.join(laptop, 'login.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    token = (JSON.parse(await readFile(file, 'utf8')) as { token: string }).token;
    expect(token).toMatch(/^atu-/);
    const state = await readFile(path.join(rig.hub.home, 'state.json'), 'utf8');
    expect(state).not.toContain(token);
    const whoami = await runChecked(['whoami'], laptop, NO_KEYCHAIN);
    expect(whoami).toMatch(new RegExp(`person  ${PERSON}\\nteam    ${TEAM}\\nhub     ${rig.hub.url}\\ntoken   atu-.{4}… in .*login\\.json \\(plain text`));
  }, 40_000);

  it('starts in sidecar mode, ignoring provider keys in its environment, and serves the three SDKs with no credential', async () => {
    sidecar = await rig.jar.start({ home: laptop, env: { ...NO_KEYCHAIN, OPENAI_API_KEY: 'sk-stray-laptop-key', GW_LOG_LEVEL: 'warn' } });
    expect(sidecar.stdout()).toContain('sidecar mode, listening on http://127.0.0.1:');
    expect(sidecar.stdout()).toContain(`logged in as ${PERSON} (team ${TEAM})`);
    expect(sidecar.stdout()).toMatch(/notice: sidecar mode: providers from the environment are ignored \(openai\)/);
    const openai = new OpenAI({ apiKey: 'not-a-gw-key', baseURL: `${sidecar.url}/v1`, maxRetries: 0 });
    const completion = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'from openai sdk' }] });
    expect(completion.choices[0]?.message.content).toContain('from openai sdk');
    const stream = await openai.chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'streamed' }] });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toContain('streamed');
    const anthropic = new Anthropic({ apiKey: 'not-a-gw-key', baseURL: sidecar.url, maxRetries: 0 });
    const message = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'from anthropic sdk' }] });
    expect(JSON.stringify(message.content)).toContain('from anthropic sdk');
    const genai = new GoogleGenAI({ apiKey: 'not-a-gw-key', httpOptions: { baseUrl: `${sidecar.url}/genai` } });
    const generated = await genai.models.generateContent({ model: 'gemini-2.0-flash', contents: 'from genai sdk' });
    expect(generated.text).toContain('from genai sdk');
    const bare = await chat(sidecar.url, 'gpt-4o-mini', 'no headers at all');
    expect(bare.status).toBe(200);
  }, 40_000);

  it('the providers saw their own keys and never the personal token or the team key', async () => {
    const { openai, anthropic, gemini } = rig.fakes;
    expect(openai.requests.at(-1)?.headers.authorization).toBe(`Bearer ${PROVIDER_KEYS.openai}`);
    expect(anthropic.requests.at(-1)?.headers['x-api-key']).toBe(PROVIDER_KEYS.anthropic);
    expect(gemini.requests.at(-1)?.headers['x-goog-api-key']).toBe(PROVIDER_KEYS.gemini);
    const sent = everythingSent([openai, anthropic, gemini]);
    const liveKeys = await liveKeysOf(rig.hub.home);
    expect(liveKeys.length).toBeGreaterThan(0);
    for (const secret of [token, ...liveKeys, 'sk-stray-laptop-key']) expect(sent).not.toContain(secret);
    expect(sent).not.toMatch(/atu-|sk-gw-|gws-/);
  });

  it('the hub serves the token on its own data plane too, as its person', async () => {
    const response = await fetch(`${rig.hub.url}/v1/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': token },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'direct with token' }] }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const secret of [token, ...(await liveKeysOf(rig.hub.home))]) expect(text).not.toContain(secret);
    expect(everythingSent([rig.fakes.openai])).not.toContain(token);
  });

  it('refuses a foreign Host header (DNS rebinding) and a browser cross-origin POST', async () => {
    const { request } = await import('node:http');
    const status = (headers: Record<string, string>, method = 'GET', pathName = '/health') => new Promise<number>((resolve, reject) => {
      const url = new URL(sidecar.url);
      const call = request({ host: url.hostname, port: url.port, path: pathName, method, headers }, (response) => { response.resume(); resolve(response.statusCode ?? 0); });
      call.on('error', reject);
      call.end(method === 'POST' ? JSON.stringify({ model: 'gpt-4o-mini', messages: [] }) : undefined);
    });
    expect(await status({ host: 'attacker.example:80' })).toBe(403);
    expect(await status({ host: 'localhost' })).toBe(200);
    const before = rig.fakes.openai.requests.length;
    expect(await status({ 'content-type': 'text/plain', origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' }, 'POST', '/v1/chat/completions')).toBe(403);
    expect(rig.fakes.openai.requests.length).toBe(before);
  });

  it('keeps working when the team key is rotated under it, with no re-exchange: the hub counts the calls under the new key', async () => {
    const exchangesBefore = (await readAudit(rig.hub.home)).filter((record) => record.kind === 'login.exchange').length;
    expect(await runChecked(['teams', 'rotate-key', TEAM, '--overlap', '0s'], rig.hub.home)).toContain('rotated the live key of team eng');
    const state = JSON.parse(await readFile(path.join(rig.hub.home, 'state.json'), 'utf8')) as { live_keys: Array<{ key_id: string; superseded_at: string | null }> };
    const current = state.live_keys.find((live) => live.superseded_at === null)!.key_id;
    // The hub notices state.json within about a second (longer on a loaded machine); every call meanwhile must succeed.
    await waitUntil(async () => {
      expect((await chat(sidecar.url, 'gpt-4o-mini', 'after rotation')).status).toBe(200);
      await sleep(200);
      return (await readAudit(rig.hub.home)).filter((record) => record.kind === 'request').at(-1)?.key_id === current;
    }, { timeoutMs: 10_000, what: 'calls counted under the new team key' });
    expect((await readAudit(rig.hub.home)).filter((record) => record.kind === 'login.exchange')).toHaveLength(exchangesBefore);
  }, 20_000);

  it('keeps serving local models while the hub is down, with /health showing the hub degraded, and recovers', async () => {
    const port = new URL(rig.hub.url).port;
    await rig.hub.stop('SIGTERM');
    expect((await chat(sidecar.url, 'gpt-4o-mini', 'hub down')).status).toBe(502);
    const local = await chat(sidecar.url, 'mock/echo', 'still here');
    expect(local.status).toBe(200);
    const health = await (await fetch(`${sidecar.url}/health`)).json() as { status: string; components: { hub: { status: string; reason: string } } };
    expect(health.status).toBe('degraded');
    expect(health.components.hub).toMatchObject({ status: 'degraded', reason: expect.stringContaining('unreachable') });
    rig.hub = await rig.jar.start({ home: rig.hub.home, env: rig.hubEnv, args: ['--standalone', '--port', port] });
    expect((await chat(sidecar.url, 'gpt-4o-mini', 'hub back')).status).toBe(200);
    const healthy = await (await fetch(`${sidecar.url}/health`)).json() as { components: { hub: { status: string } } };
    expect(healthy.components.hub.status).toBe('ok');
  }, 40_000);

  it('stops serving through the hub once the token is revoked, and says to log in again', async () => {
    const tokens = JSON.parse(await runChecked(['tokens', 'list', '--json'], rig.hub.home)) as Array<{ id: string; person: string }>;
    const id = tokens.find((entry) => entry.person === PERSON)!.id;
    expect(await runChecked(['tokens', 'revoke', id], rig.hub.home)).toContain(`revoked ${id}`);
    await waitUntil(async () => (await chat(sidecar.url, 'gpt-4o-mini', 'after revoke')).status === 401, { timeoutMs: 5_000, what: 'the revocation to bite' });
    const refused = await chat(sidecar.url, 'gpt-4o-mini', 'after revoke');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('run gw login');
    const health = await (await fetch(`${sidecar.url}/health`)).json() as { components: { hub: { status: string } } };
    expect(health.components.hub.status).toBe('down');
  }, 20_000);

  it('both audit chains verify and name the person; no secret is in either', async () => {
    await rig.jar.stopAll();
    for (const home of [rig.hub.home, laptop]) {
      const verify = await runGw(['audit', 'verify'], { home });
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      const records = await readAudit(home);
      const served = records.filter((record) => record.kind === 'request' && record.status === 200);
      expect(served.length).toBeGreaterThan(3);
      for (const record of served.filter((entry) => entry.provider !== 'mock' || home === laptop)) expect(record.person).toBe(PERSON);
      const text = await readFile(path.join(home, 'audit', 'audit.jsonl'), 'utf8');
      for (const secret of [token, ...(await liveKeysOf(rig.hub.home))]) expect(text).not.toContain(secret);
    }
    const hubServed = (await readAudit(rig.hub.home)).filter((record) => record.kind === 'request' && record.team === TEAM);
    expect(hubServed.every((record) => record.person === PERSON)).toBe(true);
  }, 30_000);
});
