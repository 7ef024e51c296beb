// The OCSF mapping and the offline verifier, pure: a chain with one record of every kind,
// exported, each event checked against the OCSF 1.9 schema files (test/support/ocsf-schema.ts),
// and the verifier catching an edited field, an edited record, a dropped, reordered or cut
// event, and a signature under a key it was not given.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GENESIS_PREV, sealRecord } from '../../src/audit/chain.js';
import { signCheckpointWithKey, trailIdOf } from '../../src/audit/checkpoint.js';
import { exportOcsf, type OcsfExportSummary } from '../../src/audit/ocsf/export-ocsf.js';
import { verifyOcsfLines } from '../../src/audit/ocsf/verify-ocsf.js';
import type { AuditFields } from '../../src/audit/record.js';
import { rawPublicKey } from '../../src/audit/signing-key.js';
import { OcsfSchema } from '../support/ocsf-schema.js';

const schema = new OcsfSchema();

const EVERY_KIND: AuditFields[] = [
  { kind: 'gateway.start', data: { pid: 1 } },
  { kind: 'request', request_id: 'req_1', origin: '127.0.0.1', key_id: 'vk_1', person: 'ada@example.com', team: 'eng', route: '/v1/chat/completions', family: 'openai', operation: 'chat.completions', model: 'gpt-4o', provider: 'openai', status: 200, latency_ms: 12, tokens: { input: 3, output: 5 }, outcome: ['ok'], cost: { nano_usd: 120, price: 'dataset' }, session: 'ses_7f3a', agent: 'claude-code/2.1.197' },
  { kind: 'request', origin: '10.0.0.2', operation: 'embeddings', status: 502, outcome: ['GW_ERR_UPSTREAM_UNAVAILABLE'] },
  { kind: 'auth.refused', origin: '127.0.0.1', outcome: ['GW_ERR_AUTH_INVALID'] },
  { kind: 'auth.refused_burst', origin: '127.0.0.1', data: { count: 12 } },
  { kind: 'guard.refused', origin: 'evil.example', data: { reason: 'foreign Host' } },
  { kind: 'guard.refused_burst', origin: 'evil.example', data: { count: 3 } },
  { kind: 'realtime.open', origin: '127.0.0.1', model: 'gpt-4o-realtime', provider: 'openai', status: 101 },
  { kind: 'realtime.close', origin: '127.0.0.1', outcome: ['ok'] },
  { kind: 'login.token_issued', person: 'ada@example.com', team: 'eng', origin: '127.0.0.1', data: { token_id: 't1' } },
  { kind: 'login.token_revoked', person: 'ada@example.com', origin: '127.0.0.1', data: { token_id: 't1' } },
  { kind: 'login.code_replayed', origin: '127.0.0.1', data: { token_id: null } },
  { kind: 'login.exchange', person: 'ada@example.com', team: 'eng', key_id: 'vk_2', origin: '127.0.0.1', data: { token_id: 't2' } },
  { kind: 'login.key_rotated', team: 'eng', key_id: 'vk_3' },
  { kind: 'admin.sign_in', origin: '127.0.0.1', route: '/ui/login', data: { admin_id: 'adm_1', admin_name: 'root', via: 'admin_token' } },
  { kind: 'admin.refused', origin: '127.0.0.1', route: '/admin/keys', data: { reason: 'no credential', method: 'GET' } },
  { kind: 'admin.change', origin: '127.0.0.1', route: '/admin/keys', operation: 'keys.create', data: { admin_id: 'adm_1', admin_name: 'root', via: 'api', action: 'keys.create', target: 'vk_4' } },
  { kind: 'admin.change', data: { via: 'cli', actor: 'ada@laptop', command: 'teams create', changes: [] } },
  { kind: 'audit.gap', data: { lost: 2, first_ts: null, last_ts: null, reason: 'ENOSPC' } },
  { kind: 'audit.recovered', data: { bytes: 10, quarantine_file: 'q.jsonl' } },
  { kind: 'gateway.stop', data: { pid: 1 } },
];

function chainOf(fields: AuditFields[]): string[] {
  const lines: string[] = [];
  let prev = GENESIS_PREV;
  fields.forEach((field, index) => {
    const sealed = sealRecord({ ...field, v: 1, seq: index + 1, ts: new Date(Date.parse('2026-11-27T10:00:00Z') + index * 1000).toISOString(), prev });
    prev = sealed.record.hash;
    lines.push(sealed.line);
  });
  return lines;
}

const keys = generateKeyPairSync('ed25519');
const publicKey = rawPublicKey(keys.privateKey);

/** The instance's checkpoint at the record on `index`. */
function checkpointAt(lines: string[], index: number) {
  const record = JSON.parse(lines[index]!) as { seq: number; hash: string };
  return signCheckpointWithKey(keys.privateKey, publicKey, trailIdOf((JSON.parse(lines[0]!) as { hash: string }).hash), record);
}

async function exported(lines: string[], options: { since?: number; until?: number; witnessedAt?: number[] } = {}): Promise<string[]> {
  const { witnessedAt = [], ...window } = options;
  const summary: OcsfExportSummary = { events: 0, signed: 0, lastSigned: false, unsignedTail: 0 };
  const events: string[] = [];
  const witnessed = witnessedAt.map((index) => checkpointAt(lines, index));
  for await (const event of exportOcsf(lines, { checkpoint: checkpointAt(lines, lines.length - 1), witnessed, ...window }, summary)) events.push(event);
  return events;
}

const trail = chainOf(EVERY_KIND);

describe('the OCSF mapping', () => {
  it('the schema resolver catches a missing required attribute and an undefined one, nested too', () => {
    const base = { class_uid: 6002, category_uid: 6, activity_id: 3, type_uid: 600203, severity_id: 1, time: 1, app: { name: 'gw' }, metadata: { version: '1.9.0-dev', product: { name: 'gw' } } };
    expect(schema.check(base)).toEqual([]);
    expect(schema.check({ ...base, time: undefined })).toEqual(['application_lifecycle.time is required but missing']);
    expect(schema.check({ ...base, app: { name: 'gw', flavour: 'x' } })).toEqual(['application_lifecycle.app.flavour is not an attribute the schema defines here']);
    expect(schema.check({ ...base, metadata: { product: { name: 'gw' } } })).toEqual(['application_lifecycle.metadata.version is required but missing']);
    const integrity = { ...base, metadata: { ...base.metadata, profiles: ['record_integrity'] } };
    expect(schema.check({ ...integrity, attestation_list: [{ chain_uid: 'c', fingerprint: { value: 'ab' } }] })).toEqual(['application_lifecycle.attestation_list[0].fingerprint.algorithm_id is required but missing']);
    // A profile's attributes exist only where the event applies the profile.
    expect(schema.check({ ...base, attestation_list: [] })).toEqual(['application_lifecycle.attestation_list is not an attribute the schema defines here']);
    expect(schema.check({ ...base, activity_id: 42, type_uid: 600242 })).toEqual(['application_lifecycle.activity_id: 42 is not one of its enum values']);
  });

  it('every kind of record becomes an event its class defines completely, at every level', async () => {
    const events = (await exported(trail)).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toHaveLength(EVERY_KIND.length);
    for (const event of events) expect(schema.check(event), String(event.raw_data)).toEqual([]);
    const classes = Object.fromEntries(events.map((event) => [(event.unmapped as { gw: { kind: string } }).gw.kind, event.class_uid]));
    expect(classes).toMatchObject({ request: 6003, 'login.exchange': 3002, 'auth.refused': 3002, 'admin.change': 3004, 'gateway.start': 6002, 'audit.gap': 6008, 'guard.refused': 6003, 'realtime.open': 6003 });
  });

  it('says which schema it follows, and a call from a coding agent carries the agent and its session as ai_agent', async () => {
    const events = (await exported(trail)).map((line) => JSON.parse(line) as { metadata: { version: string; profiles: string[] }; ai_agent?: unknown; ai_model?: unknown });
    for (const event of events) expect(event.metadata.version).toBe(schema.version);
    const [agentCall, plainCall] = events.filter((_, index) => EVERY_KIND[index]!.kind === 'request');
    expect(agentCall?.ai_agent).toEqual({ name: 'claude-code', version: '2.1.197', instance_uid: 'ses_7f3a', ai_model: { name: 'gpt-4o', ai_provider: 'openai' } });
    expect(agentCall?.metadata.profiles).toContain('ai_operation');
    // Without a known agent there is no ai_agent (and this call named no model either).
    expect(plainCall?.ai_agent).toBeUndefined();
  });

  it('each event carries its chain, link, fingerprint, stable uid and, on the checkpoint\'s record, the signature', async () => {
    const events = (await exported(trail)).map((line) => JSON.parse(line) as { metadata: { uid: string }; attestation_list: Array<Record<string, unknown>>; raw_data: string; unmapped: Record<string, unknown> });
    const chain = trailIdOf((JSON.parse(trail[0]!) as { hash: string }).hash);
    events.forEach((event, index) => {
      const record = JSON.parse(event.raw_data) as { seq: number; hash: string; prev: string };
      const [attestation] = event.attestation_list;
      expect(event.metadata.uid).toBe(`gw:${chain}:${record.seq}`);
      expect(attestation).toMatchObject({ chain_uid: chain, fingerprint: { algorithm_id: 3, value: record.hash } });
      if (index === 0) expect(attestation!.prev_event).toBeUndefined();
      else expect(attestation!.prev_event).toEqual({ uid: events[index - 1]!.metadata.uid, fingerprint: { algorithm_id: 3, algorithm: 'SHA-256', encoding_id: 1, encoding: 'Hex', value: record.prev } });
      const last = index === events.length - 1;
      expect(attestation!.signatures !== undefined, `signature on event ${index + 1}`).toBe(last);
      expect(event.unmapped.gw_signatures !== undefined).toBe(last);
    });
  });
});

describe('verify --ocsf, pure', () => {
  const verify = (lines: string[], trustedKeys = [publicKey]) => verifyOcsfLines(lines, { trustedKeys });

  it('an untouched export verifies', async () => {
    const verdict = await verify(await exported(trail));
    expect(verdict).toMatchObject({ ok: true, events: EVERY_KIND.length, head: { seq: EVERY_KIND.length } });
  });

  it('an export an older gw made, without ai_agent, still verifies; an edited or half-removed ai_agent does not', async () => {
    const events = await exported(trail);
    const agentIndex = EVERY_KIND.findIndex((fields) => fields.agent !== undefined);
    const rewrite = (change: (event: { ai_agent?: { name?: string }; metadata: { profiles: string[] } }) => void) => events.map((line, index) => {
      if (index !== agentIndex) return line;
      const event = JSON.parse(line) as { ai_agent?: { name?: string }; metadata: { profiles: string[] } };
      change(event);
      return JSON.stringify(event);
    });
    // What the mapping gave before ai_agent: the same event without it (ai_model keeps ai_operation).
    expect(await verify(rewrite((event) => { delete event.ai_agent; }))).toMatchObject({ ok: true, events: EVERY_KIND.length });
    const renamed = await verify(rewrite((event) => { if (event.ai_agent) event.ai_agent.name = 'mallory-agent'; }));
    expect(renamed.firstBad?.reason).toContain('ai_agent.name differs');
    const halfRemoved = await verify(rewrite((event) => { delete event.ai_agent; event.metadata.profiles = ['record_integrity']; }));
    expect(halfRemoved).toMatchObject({ ok: false, firstBad: { reason: expect.stringContaining('differs from what its raw_data gives') } });
  });

  it('an edited OCSF field, an edited record, a dropped, reordered or cut event, and an untrusted key each fail, naming the event', async () => {
    const events = await exported(trail);
    const uid = (line: string) => (JSON.parse(line) as { metadata: { uid: string } }).metadata.uid;
    const edit = (index: number, change: (event: Record<string, unknown>) => void) => events.map((line, at) => {
      if (at !== index) return line;
      const event = JSON.parse(line) as Record<string, unknown>;
      change(event);
      return JSON.stringify(event);
    });
    const renamed = await verify(edit(1, (event) => { (event.actor as { user: { name: string } }).user.name = 'mallory'; }));
    expect(renamed.firstBad).toMatchObject({ uid: uid(events[1]!), reason: expect.stringContaining('actor.user.name differs') });
    const status = await verify(edit(1, (event) => { event.raw_data = (event.raw_data as string).replace('"status":200', '"status":201'); }));
    expect(status.firstBad).toMatchObject({ uid: uid(events[1]!), reason: expect.stringContaining('hash mismatch') });
    const dropped = await verify(events.filter((_, index) => index !== 3));
    expect(dropped.firstBad).toMatchObject({ uid: uid(events[4]!), reason: expect.stringContaining('deleted or reordered') });
    const reordered = await verify([events[0]!, events[2]!, events[1]!, ...events.slice(3)]);
    expect(reordered.firstBad).toMatchObject({ uid: uid(events[2]!) });
    const cut = await verify(events.slice(0, -1));
    expect(cut.firstBad).toMatchObject({ uid: uid(events.at(-2)!), reason: expect.stringContaining('no event carries a signature') });
    const headless = await verify(events.slice(1));
    expect(headless.firstBad).toMatchObject({ uid: uid(events[1]!), reason: expect.stringContaining('starts at seq 2') });
    const stranger = await verify(events, [rawPublicKey(generateKeyPairSync('ed25519').privateKey)]);
    expect(stranger.firstBad).toMatchObject({ uid: uid(events.at(-1)!), reason: expect.stringContaining('not trusted') });
  });

  it('a window (--since) verifies with window set, and a window that ends before the checkpoint does not', async () => {
    const since = Date.parse('2026-11-27T10:00:05Z');
    const window = await exported(trail, { since });
    expect(JSON.parse(window[0]!).metadata.sequence).toBe(6);
    expect((await verifyOcsfLines(window, { trustedKeys: [publicKey], window: true })).ok).toBe(true);
    expect((await verifyOcsfLines(window, { trustedKeys: [publicKey] })).ok).toBe(false);
    const early = await exported(trail, { until: since });
    expect((await verifyOcsfLines(early, { trustedKeys: [publicKey] })).firstBad?.reason).toContain('no event carries a signature');
  });

  it('checkpoints a witness kept sign the records they are at: a window ending on one verifies', async () => {
    const until = Date.parse('2026-11-27T10:00:07Z'); // the record at index 7 (seq 8)
    const events = await exported(trail, { until, witnessedAt: [3, 7] });
    expect(events).toHaveLength(8);
    const signedSeqs = events.filter((line) => line.includes('"gw_signatures"')).map((line) => (JSON.parse(line) as { metadata: { sequence: number } }).metadata.sequence);
    expect(signedSeqs).toEqual([4, 8]);
    expect((await verifyOcsfLines(events, { trustedKeys: [publicKey] })).ok).toBe(true);
    // A witnessed checkpoint of another chain, or of another hash at that seq, signs nothing.
    const other = chainOf([{ kind: 'gateway.start', data: { pid: 2 } }, ...EVERY_KIND.slice(1)]);
    const foreign = signCheckpointWithKey(keys.privateKey, publicKey, trailIdOf((JSON.parse(other[0]!) as { hash: string }).hash), JSON.parse(other[7]!) as { seq: number; hash: string });
    const summary: OcsfExportSummary = { events: 0, signed: 0, lastSigned: false, unsignedTail: 0 };
    for await (const _event of exportOcsf(trail, { checkpoint: checkpointAt(trail, trail.length - 1), witnessed: [foreign], until }, summary)) { /* counted */ }
    expect(summary).toMatchObject({ events: 8, signed: 0, lastSigned: false });
  });
});
