// A realtime WebSocket session through a real `gw serve` (issue 29, lineage): the handshake's
// x-gw-session and User-Agent are on both of the session's records, realtime.open and
// realtime.close, and the OCSF export carries the session as metadata.correlation_uid; one the
// team's own DLP rule matches is on neither (issue 36).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { readAudit, waitForCheckpoint, waitForState, waitUntil } from '../helpers.js';
import { startFakeResourceProvider, type FakeResourceProvider } from '../resources/fake-resource-provider.js';

const UPSTREAM_KEY = 'sk-fake-realtime-upstream';
const SESSION = 'voice-run-7';
let gw: GatewayProcess;
let fake: FakeResourceProvider;

beforeAll(async () => {
  fake = await startFakeResourceProvider(UPSTREAM_KEY);
  gw = await startGatewayProcess({ env: { OPENAI_API_KEY: UPSTREAM_KEY, OPENAI_BASE_URL: `${fake.url}/v1`, GW_LOG_LEVEL: 'warn' } });
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await fake?.close();
});

async function countCloses(): Promise<number> {
  return (await readAudit(gw.home)).filter((line) => line.kind === 'realtime.close').length;
}

/** realtime.close is written as the session ends, after the client saw the close: waits for one more than `before`. */
async function realtimeClosed(before: number): Promise<void> {
  await waitUntil(async () => await countCloses() > before, { what: 'the session\'s realtime.close record' });
}

it('realtime.open and realtime.close carry the session and agent; OCSF correlates them by session', async () => {
  const closesBefore = await countCloses();
  const client = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/realtime?model=openai/gpt-realtime`, {
    headers: { authorization: `Bearer ${gw.bootstrapKey}`, 'openai-beta': 'realtime=v1', 'x-gw-session': SESSION, 'user-agent': 'OpenAI/JS 6.49.0' },
  });
  await new Promise((resolve, reject) => { client.once('open', resolve); client.once('error', reject); });
  client.send(JSON.stringify({ type: 'goodbye' }));
  await new Promise((resolve) => client.once('close', resolve));
  await realtimeClosed(closesBefore);
  const records = (await readAudit(gw.home)).filter((line) => line.kind.startsWith('realtime.'));
  expect(records.map((line) => line.kind)).toEqual(['realtime.open', 'realtime.close']);
  for (const record of records) expect(record).toMatchObject({ session: SESSION, agent: 'openai-js/6.49.0' });

  await waitForCheckpoint(gw.home);
  const exported = await runGw(['audit', 'export', '--format', 'ocsf'], { home: gw.home });
  expect(exported.code, exported.stderr).toBe(0);
  const events = exported.stdout.trim().split('\n').map((line) => JSON.parse(line) as { metadata: { event_code: string; correlation_uid?: string } });
  const realtime = events.filter((event) => event.metadata.event_code.startsWith('realtime.'));
  expect(realtime.map((event) => event.metadata.correlation_uid)).toEqual([SESSION, SESSION]);
  expect(events.find((event) => event.metadata.event_code === 'gateway.start')!.metadata).not.toHaveProperty('correlation_uid');
}, 60_000);

it('a handshake session the team\'s own DLP rule matches is on neither record; realtime.open names the rule (issue 36)', async () => {
  const token = 'corptok-a1b2c3d4e5f6g7h8i9j0';
  const rule = await runGw(['dlp', 'add', 'corp_token', '--pattern', 'corptok-[a-z0-9]{20}', '--action', 'block', '--scope', 'team:local'], { home: gw.home });
  expect(rule.code, rule.stderr).toBe(0);
  await waitForState(gw);
  const closesBefore = await countCloses();
  const client = new WebSocket(`${gw.url.replace('http', 'ws')}/v1/realtime?model=openai/gpt-realtime`, {
    headers: { authorization: `Bearer ${gw.bootstrapKey}`, 'openai-beta': 'realtime=v1', 'x-gw-session': token, 'user-agent': 'OpenAI/JS 6.49.0' },
  });
  await new Promise((resolve, reject) => { client.once('open', resolve); client.once('error', reject); });
  client.send(JSON.stringify({ type: 'goodbye' }));
  await new Promise((resolve) => client.once('close', resolve));
  await realtimeClosed(closesBefore);
  const records = (await readAudit(gw.home)).filter((line) => line.kind.startsWith('realtime.')).slice(-2);
  expect(records.map((line) => line.kind)).toEqual(['realtime.open', 'realtime.close']);
  for (const record of records) {
    expect(record).not.toHaveProperty('session');
    expect(record.agent).toBe('openai-js/6.49.0');
  }
  expect(records[0]!.warnings).toContain('session_id_refused: corp_token');
  expect(await readFile(path.join(gw.home, 'audit', 'audit.jsonl'), 'utf8')).not.toContain(token);
}, 60_000);
