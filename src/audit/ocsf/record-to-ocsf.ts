// One audit record as one OCSF 1.9 event with the record_integrity profile. Pure and
// deterministic: the offline verifier rebuilds each event from its raw_data with this same
// function and compares, so an edited OCSF field is caught (docs/audit-ocsf.md).
import { isIP } from 'node:net';
import { fingerprintOf } from '../key-fingerprint.js';
import type { AuditRecord, AuditValue } from '../record.js';
import { adminActionOf, ocsfClassOf } from './ocsf-class.js';

/** The schema the events follow: the copy the tests check them against (test/fixtures/ocsf-schema/version.json). */
const OCSF_VERSION = '1.9.0-dev';
const RECORD_SERIALIZATION = 'gw audit record v1: SHA-256 of prev, "\\n" and the JCS (RFC 8785) of raw_data without hash';
const CHECKPOINT_SERIALIZATION = 'gw audit checkpoint v2: Ed25519 over "gw audit checkpoint v2\\n" chain_uid "\\n" seq "\\n" hash';
const CLOSED_CHECKPOINT_SERIALIZATION = 'gw audit checkpoint v2: Ed25519 over "gw audit checkpoint v2\\n" chain_uid "\\n" seq "\\n" hash "\\nclosed"';
const COSIGNATURE_SERIALIZATION = 'gw audit cosignature v1: Ed25519 over "gw audit cosignature v1\\n" chain_uid "\\n" seq "\\n" hash';
const CLOSED_COSIGNATURE_SERIALIZATION = 'gw audit cosignature v1: Ed25519 over "gw audit cosignature v1\\n" chain_uid "\\n" seq "\\n" hash "\\nclosed"';
/** What a witness's key is, in digital_signature.certificate (which requires an issuer and a serial number): a bare key, no X.509. */
const WITNESS_KEY_ISSUER = 'gw audit witness key (a bare Ed25519 key, no X.509): certificate.uid is the key, serial_number its fingerprint';

export type OcsfValue = AuditValue;
export type OcsfEvent = { [key: string]: OcsfValue };

/** The instance's Ed25519 signature over this record's hash (its checkpoint is at this record's seq). */
export interface EventSignature {
  public_key: string;
  signature: string;
  /** The checkpoint closed its chain (gw audit rotate): its message ends in "closed". */
  closed?: true;
}

/** A witness's Ed25519 cosignature of the same checkpoint (src/audit/cosignature.ts). */
export interface EventCosignature {
  witness_public_key: string;
  signature: string;
  closed?: true;
  /** When the instance received it; not signed (an auditor's hint, not proof). */
  received_at: string;
}

export interface EventLink {
  /** The trail id: trailIdOf(hash of record 1). */
  chain: string;
  signature?: EventSignature;
  /** Only with a signature: the witnesses' cosignatures of the checkpoint at this record. */
  cosignatures?: readonly EventCosignature[];
}

/** Stable across exports: the chain and the record's seq. */
export function eventUidOf(chain: string, seq: number): string {
  return `gw:${chain}:${seq}`;
}

const CHAIN_MEMBERS = new Set(['v', 'seq', 'ts', 'prev', 'hash']);

function sha256Fingerprint(value: string): OcsfEvent {
  return { algorithm_id: 3, algorithm: 'SHA-256', encoding_id: 1, encoding: 'Hex', value };
}

function attestationOf(record: AuditRecord, link: EventLink): OcsfEvent {
  const attestation: OcsfEvent = {
    uid: eventUidOf(link.chain, record.seq), chain_uid: link.chain,
    fingerprint: { ...sha256Fingerprint(record.hash), serialization_id: 99, serialization: RECORD_SERIALIZATION },
  };
  if (record.seq > 1) attestation.prev_event = { uid: eventUidOf(link.chain, record.seq - 1), fingerprint: sha256Fingerprint(record.prev) };
  if (link.signature) {
    attestation.authority_uid = fingerprintOf(link.signature.public_key);
    // digital_signature has no member for the signature bytes: digest names what was signed, the bytes go in unmapped.
    const serialization = link.signature.closed ? CLOSED_CHECKPOINT_SERIALIZATION : CHECKPOINT_SERIALIZATION;
    attestation.signatures = [{ algorithm_id: 99, algorithm: 'Ed25519', serialization_id: 99, serialization, digest: sha256Fingerprint(record.hash) },
      ...(link.cosignatures ?? []).map((cosignature) => witnessSignature(record, cosignature))];
  }
  return attestation;
}

/** A co-signer names itself in its own digital_signature (the attestation's authority_uid is the producer's). */
function witnessSignature(record: AuditRecord, cosignature: EventCosignature): OcsfEvent {
  const fingerprint = fingerprintOf(cosignature.witness_public_key);
  const time = Date.parse(cosignature.received_at);
  return {
    algorithm_id: 99, algorithm: 'Ed25519', serialization_id: 99,
    serialization: cosignature.closed ? CLOSED_COSIGNATURE_SERIALIZATION : COSIGNATURE_SERIALIZATION, digest: sha256Fingerprint(record.hash),
    certificate: { uid: cosignature.witness_public_key, serial_number: fingerprint, issuer: WITNESS_KEY_ISSUER, subject: `gw audit witness ${fingerprint}`, is_self_signed: true },
    ...(Number.isFinite(time) ? { created_time: time } : {}),
  };
}

/** unmapped.gw_signatures: the instance's signature first, then each witness's (role "witness"), in the order of attestation.signatures. */
function signatureEntries(record: AuditRecord, link: EventLink): OcsfEvent[] {
  if (!link.signature) return [];
  const { closed, ...signature } = link.signature;
  const entries: OcsfEvent[] = [{ ...signature, key_fingerprint: fingerprintOf(signature.public_key), seq: record.seq, hash: record.hash, ...(closed ? { closed } : {}) }];
  for (const cosignature of link.cosignatures ?? []) {
    entries.push({
      role: 'witness', public_key: cosignature.witness_public_key, signature: cosignature.signature, key_fingerprint: fingerprintOf(cosignature.witness_public_key),
      seq: record.seq, hash: record.hash, ...(cosignature.closed ? { closed: true } : {}), received_at: cosignature.received_at,
    });
  }
  return entries;
}

const FAILED_KINDS = new Set(['auth.refused', 'auth.refused_burst', 'guard.refused', 'guard.refused_burst', 'admin.refused', 'login.code_replayed', 'login.refresh_refused', 'login.refresh_reused', 'audit.gap']);

function statusOf(record: AuditRecord): OcsfEvent {
  const failed = FAILED_KINDS.has(record.kind) || (record.status !== undefined && record.status >= 400);
  const known = failed || record.status !== undefined || !['request', 'realtime.open', 'realtime.close'].includes(record.kind);
  const status: OcsfEvent = failed ? { status_id: 2, status: 'Failure' } : known ? { status_id: 1, status: 'Success' } : { status_id: 0, status: 'Unknown' };
  if (record.status !== undefined) status.status_code = String(record.status);
  if (record.outcome && record.outcome.length > 0) status.status_detail = record.outcome.join(', ');
  const severe = record.kind === 'audit.gap' || record.kind === 'login.code_replayed' || record.kind === 'login.refresh_reused';
  return { ...status, ...(severe ? { severity_id: 4, severity: 'High' } : failed ? { severity_id: 3, severity: 'Medium' } : { severity_id: 1, severity: 'Informational' }) };
}

function text(value: AuditValue | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Who acted: the person (or admin) by name, the key or admin id as uid. */
function userOf(record: AuditRecord): OcsfEvent {
  const data = record.data ?? {};
  const name = record.person ?? text(data.admin_name) ?? text(data.actor);
  const uid = record.key_id ?? text(data.admin_id);
  const user: OcsfEvent = {};
  if (name !== undefined) user.name = name;
  if (uid !== undefined) user.uid = uid;
  return Object.keys(user).length > 0 ? user : { name: 'unknown' };
}

function endpointOf(origin: string | undefined): OcsfEvent {
  if (origin === undefined) return { name: 'unknown' };
  return isIP(origin) !== 0 ? { ip: origin } : { name: origin };
}

/**
 * Which mapping to apply: the current one, or the one gw wrote before events carried `ai_agent`,
 * so that an export an older gw made still verifies (its raw_data, which holds the agent, is the same).
 */
export type OcsfMapping = 'current' | 'before-ai-agent';

function apiFields(record: AuditRecord, mapping: OcsfMapping): OcsfEvent {
  const api: OcsfEvent = { operation: record.operation ?? record.route ?? record.kind };
  if (record.provider !== undefined) api.service = { name: record.provider };
  if (record.request_id !== undefined) api.request = { uid: record.request_id };
  const fields: OcsfEvent = { actor: { user: userOf(record) }, api, src_endpoint: endpointOf(record.origin) };
  if (record.provider !== undefined) fields.dst_endpoint = { svc_name: record.provider };
  if (record.status !== undefined) fields.http_response = { code: record.status };
  if (record.model !== undefined && record.provider !== undefined) fields.ai_model = { name: record.model, ai_provider: record.provider };
  if (record.agent !== undefined && mapping === 'current') fields.ai_agent = aiAgentOf(record.agent, record.session, fields.ai_model);
  return fields;
}

/**
 * The coding agent that made the call (docs/sessions.md): the client's name/version as the
 * agent, the session as its instance (one run), and the model the call went to.
 */
function aiAgentOf(agent: string, session: string | undefined, model: OcsfValue | undefined): OcsfEvent {
  const slash = agent.lastIndexOf('/');
  const named: OcsfEvent = slash > 0 ? { name: agent.slice(0, slash), version: agent.slice(slash + 1) } : { name: agent };
  return { ...named, ...(session !== undefined ? { instance_uid: session } : {}), ...(model !== undefined ? { ai_model: model } : {}) };
}

function classFields(record: AuditRecord, classUid: number, mapping: OcsfMapping): OcsfEvent {
  switch (classUid) {
    case 6003:
      return apiFields(record, mapping);
    case 3002:
      return { user: userOf(record), actor: { user: userOf(record) }, service: { name: 'gw' }, src_endpoint: endpointOf(record.origin) };
    case 3004: {
      const action = adminActionOf(record);
      const target = text(record.data?.target) ?? record.team ?? action;
      return { actor: { user: userOf(record) }, entity: { name: target, type: action }, src_endpoint: endpointOf(record.origin) };
    }
    case 6002:
      return { app: { name: 'gw', vendor_name: 'gw' } };
    default:
      return {};
  }
}

function messageOf(record: AuditRecord): string {
  const parts = [`gw ${record.kind}`, record.operation, record.model, record.status === undefined ? undefined : `status ${record.status}`];
  return parts.filter((part) => part !== undefined).join(' ');
}

/** The record's own fields (all but the chain members, which are in metadata and the attestation). */
function gwFields(record: AuditRecord): OcsfEvent {
  const fields: OcsfEvent = {};
  for (const [key, value] of Object.entries(record)) if (!CHAIN_MEMBERS.has(key) && value !== undefined) fields[key] = value as AuditValue;
  return fields;
}

export function recordToOcsf(record: AuditRecord, line: string, link: EventLink, mapping: OcsfMapping = 'current'): OcsfEvent {
  const ocsfClass = ocsfClassOf(record);
  const time = Date.parse(record.ts);
  const specific = classFields(record, ocsfClass.class_uid, mapping);
  const profiles = ['record_integrity', ...(specific.ai_model || specific.ai_agent ? ['ai_operation'] : [])];
  const unmapped: OcsfEvent = { gw: gwFields(record) };
  if (link.signature) unmapped.gw_signatures = signatureEntries(record, link);
  return {
    ...ocsfClass, type_uid: ocsfClass.class_uid * 100 + ocsfClass.activity_id,
    time: Number.isFinite(time) ? time : 0, ...statusOf(record), message: messageOf(record),
    metadata: { version: OCSF_VERSION, uid: eventUidOf(link.chain, record.seq), sequence: record.seq, event_code: record.kind, log_name: 'gw audit trail', product: { name: 'gw', vendor_name: 'gw' }, profiles,
      // A coding-agent session (docs/sessions.md) is what correlates its events: every call and tool call of one run.
      ...(record.session !== undefined ? { correlation_uid: record.session } : {}) },
    ...specific, attestation_list: [attestationOf(record, link)], raw_data: line, unmapped,
  };
}
