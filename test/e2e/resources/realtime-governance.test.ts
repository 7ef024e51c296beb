// Realtime sessions through the same corridor as HTTP calls, on a real `gw serve`
// with two fake realtime providers (`openai` from the environment, `backup` added
// with gw providers add): policy refuses at the handshake (denied model, denied
// `realtime` operation, requests and tokens per minute) and the refusal is in the
// audit trail; routing rules and deny_providers pick the provider; DLP holds back a
// client event carrying a secret (the session stays open) and, with output scanning
// on, stops a provider that streams one (close 1008).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { makeHome, runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { SAMPLES } from '../../dlp/samples.js';
import { readAudit, waitUntil, type AuditLine } from '../helpers.js';
import { startFakeRealtimeProvider, type FakeRealtimeProvider } from './fake-realtime-provider.js';

const SECRET = SAMPLES.githubPat;
const OPENAI_KEY = 'sk-fake-realtime-openai';
const BACKUP_KEY = 'sk-fake-realtime-backup';
/** One team per scenario, each with its own policy or DLP scope, so no test waits for a live state change. */
const TEAMS = ['plain', 'models', 'ops', 'rpm', 'tpm', 'noopenai', 'outscan'] as const;
type Team = typeof TEAMS[number];

let gw: GatewayProcess;
let openai: FakeRealtimeProvider;
let backup: FakeRealtimeProvider;
const keys = {} as Record<Team, string>;

async function cli(home: string, ...args: string[]): Promise<string> {
  const result = await runGw(args, { home });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

beforeAll(async () => {
  [openai, backup] = await Promise.all([startFakeRealtimeProvider(OPENAI_KEY), startFakeRealtimeProvider(BACKUP_KEY)]);
  const home = await makeHome();
  for (const team of TEAMS) {
    await cli(home, 'teams', 'create', team);
    keys[team] = (await cli(home, 'keys', 'create', '--team', team)).trim();
  }
  await cli(home, 'providers', 'add', 'backup', '--kind', 'openai', '--base-url', `${backup.url}/v1`, '--api-key-env', 'BACKUP_KEY');
  // The primary is picked (weights 100 : 0.0001) unless policy filters it out.
  await cli(home, 'routes', 'add', 'voice', '--target', 'openai/gpt-realtime,weight=100', '--target', 'backup/gpt-realtime,weight=0.0001');
  await cli(home, 'routes', 'add', 'voice-mini', '--target', 'backup/gpt-realtime-mini');
  // Port 1 refuses connections: the first pick fails and the session falls back to the backup.
  await cli(home, 'providers', 'add', 'dead', '--kind', 'openai', '--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'sk-never-used');
  await cli(home, 'routes', 'add', 'voice-fallback', '--target', 'dead/gpt-realtime,weight=100', '--target', 'backup/gpt-realtime,weight=0.0001');
  await cli(home, 'policy', 'set', 'team:models', '--deny-models', 'openai/gpt-realtime*');
  await cli(home, 'policy', 'set', 'team:ops', '--deny-operations', 'realtime');
  await cli(home, 'policy', 'set', 'team:rpm', '--rpm', '1');
  await cli(home, 'policy', 'set', 'team:tpm', '--tpm', '50');
  await cli(home, 'policy', 'set', 'team:noopenai', '--deny-providers', 'openai');
  await cli(home, 'dlp', 'output', 'on', '--scope', 'team:outscan');
  gw = await startGatewayProcess({ home, env: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${openai.url}/v1`, BACKUP_KEY, GW_LOG_LEVEL: 'warn' } });
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await Promise.all([openai?.close(), backup?.close()]);
});

interface Session {
  client: WebSocket;
  received: Array<Record<string, unknown>>;
  closed: Promise<number>;
}

function base64(text: string): string {
  return Buffer.from(text).toString('base64');
}

function realtimeUrl(model: string): string {
  return `${gw.url.replace('http', 'ws')}/v1/realtime?model=${encodeURIComponent(model)}`;
}

function connect(model: string, team: Team): Promise<Session> {
  return new Promise((resolve, reject) => {
    const client = new WebSocket(realtimeUrl(model), { headers: { authorization: `Bearer ${keys[team]}` } });
    const received: Session['received'] = [];
    const closed = new Promise<number>((done) => client.once('close', (code) => done(code)));
    client.on('message', (data, isBinary) => received.push(isBinary ? { type: 'binary' } : JSON.parse(String(data)) as Record<string, unknown>));
    client.once('open', () => resolve({ client, received, closed }));
    client.once('unexpected-response', (_request, response) => reject(new Error(`refused with ${response.statusCode}`)));
    client.once('error', reject);
  });
}

function refusal(model: string, team: Team): Promise<{ status: number; headers: Record<string, unknown>; body: { error: { code: string; message: string } } }> {
  return new Promise((resolve, reject) => {
    const client = new WebSocket(realtimeUrl(model), { headers: { authorization: `Bearer ${keys[team]}` } });
    client.once('open', () => { client.close(); reject(new Error('unexpectedly upgraded')); });
    client.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      response.once('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(text) as { error: { code: string; message: string } } }));
    });
    client.once('error', () => undefined);
  });
}

async function auditRecord(where: (record: AuditLine) => boolean): Promise<AuditLine> {
  let found: AuditLine | undefined;
  await waitUntil(async () => { found = (await readAudit(gw.home)).find(where); return found !== undefined; }, { what: 'an audit record' });
  return found!;
}

function waitForEvent(session: Session, type: string): Promise<number> {
  return waitUntil(() => session.received.some((event) => event.type === type), { what: `a ${type} event` });
}

describe('realtime handshake through policy and routing', () => {
  it('a denied model is refused at the handshake with 403, never reaches the provider, and is in the audit trail', async () => {
    const before = openai.upgrades.length;
    const refused = await refusal('openai/gpt-realtime', 'models');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('policy_denied');
    expect(refused.body.error.message).toContain('deny_models');
    expect(openai.upgrades.length).toBe(before);
    const record = await auditRecord((line) => line.kind === 'realtime.open' && line.team === 'models');
    expect(record).toMatchObject({ status: 403, outcome: ['GW_ERR_POLICY_DENIED'], operation: 'realtime', model: 'openai/gpt-realtime', route: '/v1/realtime' });
    expect(record.key_id).toMatch(/^vk_/);
    expect(record.origin).toBe('127.0.0.1');
  });

  it('a denied realtime operation is refused with 403 and recorded', async () => {
    const refused = await refusal('openai/gpt-realtime', 'ops');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('deny_operations');
    await auditRecord((line) => line.kind === 'realtime.open' && line.team === 'ops' && line.status === 403);
  });

  it('a requests-per-minute limit of 1 serves the first session and refuses the second with 429 and retry-after', async () => {
    const first = await connect('openai/gpt-realtime', 'rpm');
    const second = await refusal('openai/gpt-realtime', 'rpm');
    expect(second.status).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    first.client.close();
    await first.closed;
    await auditRecord((line) => line.kind === 'realtime.open' && line.team === 'rpm' && line.status === 429 && (line.outcome as string[])[0] === 'GW_ERR_POLICY_RATE_LIMITED');
  });

  it('response.done usage counts against tokens per minute: after a session used 100 tokens, the next is refused with 429', async () => {
    const session = await connect('openai/gpt-realtime', 'tpm');
    session.client.send(JSON.stringify({ type: 'say', pieces: [base64('hello')], tokens: 100 }));
    await waitForEvent(session, 'response.done');
    session.client.close();
    await session.closed;
    const close = await auditRecord((line) => line.kind === 'realtime.close' && line.team === 'tpm');
    expect(close.tokens).toEqual({ input: 99, output: 1, total: 100 });
    const next = await refusal('openai/gpt-realtime', 'tpm');
    expect(next.status).toBe(429);
    expect(next.body.error.message).toContain('tokens per minute');
  });

  it('deny_providers filters a routing rule\'s targets: the session reaches the backup, and naming openai directly is refused', async () => {
    const before = { openai: openai.upgrades.length, backup: backup.upgrades.length };
    const session = await connect('voice', 'noopenai');
    await waitForEvent(session, 'session.created');
    expect(backup.upgrades.length).toBe(before.backup + 1);
    expect(openai.upgrades.length).toBe(before.openai);
    session.client.close();
    await session.closed;
    const open = await auditRecord((line) => line.kind === 'realtime.open' && line.team === 'noopenai' && line.status === 101);
    expect(open).toMatchObject({ provider: 'backup', model: 'backup/gpt-realtime', rule: 'voice' });
    const refused = await refusal('openai/gpt-realtime', 'noopenai');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('deny_providers');
  });

  it('a routing rule\'s name as the model reaches the rule\'s target with the target\'s model', async () => {
    const session = await connect('voice-mini', 'plain');
    await waitForEvent(session, 'session.created');
    expect(session.received[0]).toMatchObject({ type: 'session.created', session: { model: 'gpt-realtime-mini' } });
    expect(backup.upgrades.at(-1)!.headers.authorization).toBe(`Bearer ${BACKUP_KEY}`);
    session.client.close();
    await session.closed;
  });

  it('a provider that cannot be reached moves the session on to the rule\'s next target, and both attempts are in the trail', async () => {
    const session = await connect('voice-fallback', 'plain');
    await waitForEvent(session, 'session.created');
    session.client.close();
    await session.closed;
    const open = await auditRecord((line) => line.kind === 'realtime.open' && line.rule === 'voice-fallback');
    expect(open).toMatchObject({ status: 101, provider: 'backup', model: 'backup/gpt-realtime' });
    expect((open.data as { attempts: Array<Record<string, unknown>> }).attempts).toMatchObject([
      { target: 'dead/gpt-realtime', error: 'GW_ERR_UPSTREAM_UNREACHABLE' }, { target: 'backup/gpt-realtime', status: 101 },
    ]);
  });
});

describe('realtime events through DLP', () => {
  it('a client event carrying a secret is held back with an error event naming it; the session stays open and the trail counts it', async () => {
    const session = await connect('openai/gpt-realtime', 'plain');
    session.client.send(JSON.stringify({
      type: 'conversation.item.create', event_id: 'evt_secret',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `deploy with ${SECRET} please` }] },
    }));
    session.client.send(Buffer.from([1, 2, 3, 4]), { binary: true });
    session.client.send(JSON.stringify({ type: 'session.update', event_id: 'evt_ok', session: { instructions: 'be brief' } }));
    await waitForEvent(session, 'session.update.ack');
    const error = session.received.find((event) => event.type === 'error');
    expect(error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', code: 'dlp_blocked', event_id: 'evt_secret' } });
    expect(String((error!.error as { message: string }).message)).toContain('github_token');
    expect(openai.messages.join('\n')).not.toContain(SECRET);
    expect(openai.messages.some((message) => message.includes('evt_ok'))).toBe(true);
    session.client.close();
    await session.closed;
    const close = await auditRecord((line) => line.kind === 'realtime.close' && line.team === 'plain' && (line.dlp as Record<string, number> | undefined)?.github_token === 1);
    expect(close.data).toMatchObject({ dlp_blocked_events: 1, dlp_unscanned: 1, client_events: 3 });
    const trail = JSON.stringify(await readAudit(gw.home));
    expect(trail).not.toContain(SECRET);
    expect(gw.stdout() + gw.stderr()).not.toContain(SECRET);
  });

  it('with output scanning on, a secret the provider streams across two deltas stops the session with an error event and 1008', async () => {
    const session = await connect('openai/gpt-realtime', 'outscan');
    // base64: the secret must reach the provider, so the client's own event may not carry it as text.
    session.client.send(JSON.stringify({ type: 'say', pieces: ['here: ', SECRET.slice(0, 20), SECRET.slice(20), ' done'].map(base64) }));
    const code = await session.closed;
    expect(code).toBe(1008);
    const error = session.received.find((event) => event.type === 'error');
    expect(error).toMatchObject({ error: { code: 'dlp_blocked' } });
    const relayed = session.received.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta).join('');
    expect(relayed).not.toContain(SECRET);
    expect(session.received.some((event) => event.type === 'response.done')).toBe(false);
    const close = await auditRecord((line) => line.kind === 'realtime.close' && line.team === 'outscan');
    expect(close).toMatchObject({ outcome: ['GW_ERR_DLP_BLOCKED'], dlp: { 'output.github_token': 1 } });
    expect(close.data).toMatchObject({ closed_by: 'gateway', close_code: 1008 });
  });
});
