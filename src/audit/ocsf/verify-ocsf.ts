// Verifies an OCSF export with nothing but its lines and the trusted public keys, pure:
// each event's record (raw_data) re-hashed with the trail's own sealing code, each link
// (seq and prev_event), each OCSF field re-derived from raw_data and compared, each
// signature checked under a trusted key (fail closed), each witness cosignature checked (under
// a --witness-key when any is given, fail closed too), and the last event signed (a cut tail)
// and, with witness keys, cosigned. A file may span `gw audit rotate`: the next chain's events
// follow the closed one's, its key trusted by that rotation (ocsf-rotation.ts). Stops at the
// first bad event and names it.
import canonicalizeModule from 'canonicalize';
import { isSignatureValid, trailIdOf, type ChainHead } from '../checkpoint.js';
import { isCosignatureValid } from '../cosignature.js';
import { fingerprintOf } from '../key-fingerprint.js';
import type { AuditRecord } from '../record.js';
import { checkRecordLine, checkRecordLink, checkRotationRecord, type ChainClosing, type ChainOpening } from '../verify.js';
import { handOverNote, handOverProblem } from './ocsf-rotation.js';
import { eventUidOf, recordToOcsf, type EventCosignature, type EventLink, type EventSignature } from './record-to-ocsf.js';
import { isPlainObject } from '../../is-plain-object.js';

type Canonicalize = (input: unknown) => string | undefined;
const loaded: unknown = canonicalizeModule;
const canonicalize: Canonicalize = typeof loaded === 'function' ? (loaded as Canonicalize) : (loaded as { default: Canonicalize }).default;

export interface OcsfVerifyOptions {
  /** The keys given with --key: a signature under any other fails (fail closed). */
  trustedKeys: readonly string[];
  /** The file is a window (--since): its first event may follow records that are not in it. */
  window?: boolean;
  /**
   * The witness keys given with --witness-key: a cosignature under any other fails, and the last
   * event must carry a cosignature under one of them. Without any, cosignatures are checked for
   * integrity only (a note says so).
   */
  witnessKeys?: readonly string[];
}

export interface OcsfBadEvent {
  line: number;
  /** The event's metadata.uid, when it has one. */
  uid?: string;
  reason: string;
}

export interface OcsfVerdict {
  ok: boolean;
  events: number;
  /** The file's last chain (its only one unless it spans a rotation). */
  chain?: string;
  /** Every chain of the file, in order: more than one when it spans `gw audit rotate`. */
  chains: string[];
  first?: number;
  head: ChainHead | null;
  /** Key fingerprints that signed events of the file. */
  signers: string[];
  /** Witness key fingerprints that cosigned events of the file. */
  cosigners: string[];
  firstBad?: OcsfBadEvent;
  notes: string[];
}

interface State {
  head: ChainHead | null;
  chain?: string;
  first?: number;
  lastSignedSeq?: number;
  /** The last event cosigned under a --witness-key. */
  lastCosignedSeq?: number;
  signers: Set<string>;
  cosigners: Set<string>;
  /** Witness keys whose cosignatures verified but were not checked against a --witness-key (none given). */
  untrustedCosigners: Set<string>;
  notes: string[];
  /** The --key keys, plus each key a rotation in the file introduced. */
  trusted: Set<string>;
  /** After a rotation: the only key the current chain may be signed by (the one its predecessor's close named). */
  expectedSigner?: string;
  /** The current chain's last signing key, whether that signature was a closed checkpoint's, and its closing record. */
  signer?: string;
  lastSignatureClosed?: boolean;
  closing?: ChainClosing;
  chains: string[];
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return isPlainObject(value) ? value : undefined;
}

function parseEvent(line: string): Record<string, unknown> | undefined {
  try {
    return asObject(JSON.parse(line));
  } catch {
    return undefined;
  }
}

interface EventSignatures {
  signature: EventSignature;
  cosignatures: EventCosignature[];
}

function cosignatureEntry(value: unknown): EventCosignature | undefined {
  const entry = asObject(value);
  if (entry?.role !== 'witness' || typeof entry.public_key !== 'string' || typeof entry.signature !== 'string' || typeof entry.received_at !== 'string') return undefined;
  if (entry.closed !== undefined && entry.closed !== true) return undefined;
  return { witness_public_key: entry.public_key, signature: entry.signature, received_at: entry.received_at, ...(entry.closed ? { closed: true as const } : {}) };
}

/** unmapped.gw_signatures: the instance's entry first (no role), then the witnesses' (role "witness"). */
function signaturesOf(event: Record<string, unknown>): EventSignatures | undefined | 'malformed' {
  const listed = asObject(event.unmapped)?.gw_signatures;
  if (listed === undefined) return undefined;
  const entry = Array.isArray(listed) && listed.length >= 1 ? asObject(listed[0]) : undefined;
  if (typeof entry?.public_key !== 'string' || typeof entry.signature !== 'string' || entry.role !== undefined) return 'malformed';
  if (entry.closed !== undefined && entry.closed !== true) return 'malformed';
  const cosignatures = (listed as unknown[]).slice(1).map(cosignatureEntry);
  if (cosignatures.some((cosignature) => cosignature === undefined)) return 'malformed';
  const signature = { public_key: entry.public_key, signature: entry.signature, ...(entry.closed ? { closed: true as const } : {}) };
  return { signature, cosignatures: cosignatures as EventCosignature[] };
}

/** The first path where two JSON values differ, for naming an edited field. */
function firstDifference(actual: unknown, expected: unknown, at = ''): string | undefined {
  const left = asObject(actual);
  const right = asObject(expected);
  if (left && right) {
    for (const key of [...new Set([...Object.keys(left), ...Object.keys(right)])].sort()) {
      const found = firstDifference(left[key], right[key], at ? `${at}.${key}` : key);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (Array.isArray(actual) && Array.isArray(expected) && actual.length === expected.length) {
    for (let index = 0; index < actual.length; index += 1) {
      const found = firstDifference(actual[index], expected[index], `${at}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return canonicalize(actual) === canonicalize(expected) ? undefined : at || '(the event)';
}

/**
 * Where an event differs from what its raw_data gives, or undefined. An event without ai_agent may
 * come from an export an older gw made: it must then match that mapping, whole.
 */
function mappingDifference(event: Record<string, unknown>, record: AuditRecord, line: string, link: EventLink): string | undefined {
  const difference = firstDifference(event, recordToOcsf(record, line, link));
  if (difference === undefined || event.ai_agent !== undefined) return difference;
  return firstDifference(event, recordToOcsf(record, line, link, 'before-ai-agent')) === undefined ? undefined : difference;
}

function linkProblem(record: AuditRecord, state: State, options: OcsfVerifyOptions): string | undefined {
  if (state.head === null && record.seq !== 1) {
    if (!options.window) return `the file starts at seq ${record.seq}: the ${record.seq - 1} earlier event(s) of the chain are not in it (dropped, or a --since export: verify it with --window)`;
    state.notes.push(`a window: the file starts at seq ${record.seq}; its first link (prev_event) is not checked`);
    return undefined;
  }
  if (state.head === null) return checkRecordLink(record, null);
  return checkRecordLink(record, state.head)?.replace(/^record \d+: /, '');
}

function cosignatureProblem(record: AuditRecord, chain: string, cosignatures: readonly EventCosignature[], options: OcsfVerifyOptions, state: State): string | undefined {
  const witnessKeys = options.witnessKeys ?? [];
  let trusted = false;
  for (const cosignature of cosignatures) {
    const fingerprint = fingerprintOf(cosignature.witness_public_key);
    const { received_at: _unsigned, ...signed } = cosignature;
    if (!isCosignatureValid({ trail: chain, seq: record.seq, hash: record.hash, ...signed })) return `the cosignature by witness key ${fingerprint} does not verify over its chain, seq and hash (forged or edited)`;
    if (witnessKeys.length === 0) {
      state.untrustedCosigners.add(fingerprint);
      continue;
    }
    if (!witnessKeys.includes(cosignature.witness_public_key)) return `cosigned by witness key ${fingerprint}, which is not trusted (not given with --witness-key): name every witness whose cosignatures the file carries, or a cosignature was forged`;
    state.cosigners.add(fingerprint);
    trusted = true;
  }
  if (trusted) state.lastCosignedSeq = record.seq;
  return undefined;
}

function signatureProblem(record: AuditRecord, chain: string, signature: EventSignature, options: OcsfVerifyOptions, state: State): string | undefined {
  const checkpoint = { v: 2 as const, trail: chain, seq: record.seq, hash: record.hash, ...signature };
  if (!isSignatureValid(checkpoint)) return 'its signature does not verify over its chain, seq and hash (forged or edited)';
  const fingerprint = fingerprintOf(signature.public_key);
  if (state.expectedSigner !== undefined && signature.public_key !== state.expectedSigner) {
    return `signed by key ${fingerprint}, not by ${fingerprintOf(state.expectedSigner)}, the key the closed chain before it introduced (the new chain was replaced)`;
  }
  if (!state.trusted.has(signature.public_key)) return `signed by key ${fingerprint}, which is not trusted (not given with --key): re-signed by someone else`;
  state.signers.add(fingerprint);
  state.lastSignedSeq = record.seq;
  state.signer = signature.public_key;
  state.lastSignatureClosed = signature.closed === true;
  return undefined;
}

/** The file goes on with the chain a verified close introduced: its key trusted, and the only one it may be signed by. */
function startNextChain(state: State, chain: string): void {
  const { chain: closed, head, closing } = state;
  // eventProblem hands over only from a chain it read, whose close it verified.
  if (closed === undefined || head === null || closing === undefined) throw new Error(`chain ${chain} starts where no closed chain ends`);
  state.notes.push(handOverNote({ ...state, chain: closed, head }, chain));
  const introduced = closing.next_public_key;
  state.trusted.add(introduced);
  state.expectedSigner = introduced;
  state.chains.push(chain);
  state.head = null;
  state.lastSignedSeq = undefined;
  state.lastCosignedSeq = undefined;
  state.signer = undefined;
  state.lastSignatureClosed = undefined;
  state.closing = undefined;
}

/** Everything about one event; undefined when it verifies. */
function eventProblem(line: string, lineNumber: number, state: State, options: OcsfVerifyOptions): Omit<OcsfBadEvent, 'line'> | undefined {
  const event = parseEvent(line);
  if (!event) return { reason: 'not a JSON object (edited or torn)' };
  const metadata = asObject(event.metadata);
  const uid = typeof metadata?.uid === 'string' ? metadata.uid : undefined;
  const bad = (reason: string) => ({ ...(uid ? { uid } : {}), reason });
  if (typeof event.raw_data !== 'string') return bad('raw_data (the original record, which the check needs) is missing');
  const verdict = checkRecordLine(event.raw_data, lineNumber);
  if ('bad' in verdict) return bad(`raw_data: ${verdict.bad.reason}`);
  const record = verdict.record;
  const attestations = event.attestation_list;
  const chain = Array.isArray(attestations) ? asObject(attestations[0])?.chain_uid : undefined;
  if (typeof chain !== 'string') return bad('attestation_list[0].chain_uid is missing');
  if (record.seq === 1 && chain !== trailIdOf(record.hash)) return bad('its chain_uid is not the id its first record names (record 1 replaced)');
  const marks: { closing?: ChainClosing; opening?: ChainOpening } = chain === state.chain && state.closing ? { closing: state.closing } : {};
  const rotation = checkRotationRecord(record, marks);
  if (rotation) return bad(rotation.replace(/^record \d+: /, ''));
  // A chain read so far has its head: both are set together, below.
  if (state.chain !== undefined && state.head !== null && chain !== state.chain) {
    const handOver = handOverProblem({ ...state, chain: state.chain, head: state.head }, chain, marks.opening);
    if (handOver) return bad(handOver);
    startNextChain(state, chain);
  }
  if (marks.closing) state.closing = marks.closing;
  const link = linkProblem(record, state, options);
  if (link) return bad(link);
  const signatures = signaturesOf(event);
  if (signatures === 'malformed') return bad('unmapped.gw_signatures is malformed');
  const signed = signatures ? signatureProblem(record, chain, signatures.signature, options, state) : undefined;
  if (signed) return bad(signed);
  const cosigned = signatures ? cosignatureProblem(record, chain, signatures.cosignatures, options, state) : undefined;
  if (cosigned) return bad(cosigned);
  const signedBy = signatures ? { signature: signatures.signature, ...(signatures.cosignatures.length > 0 ? { cosignatures: signatures.cosignatures } : {}) } : {};
  const difference = mappingDifference(event, record, event.raw_data, { chain, ...signedBy });
  if (difference !== undefined) return bad(`${difference} differs from what its raw_data gives (an OCSF field was edited)`);
  if (state.chain === undefined) state.chains.push(chain);
  state.chain = chain;
  state.first ??= record.seq;
  state.head = { seq: record.seq, hash: record.hash };
  return undefined;
}

function endProblem(state: State, events: number, lastUid: string | undefined, options: OcsfVerifyOptions): Omit<OcsfBadEvent, 'line'> | undefined {
  if (events === 0) return { reason: 'the file holds no event' };
  if (state.lastSignedSeq === undefined) return { ...(lastUid ? { uid: lastUid } : {}), reason: 'no event carries a signature: nothing ties the file to a trusted key (its signed last event dropped, or an export that ends before its chain\'s checkpoint)' };
  const headSeq = state.head?.seq;
  if (state.lastSignedSeq !== headSeq) {
    return { ...(lastUid ? { uid: lastUid } : {}), reason: `the events after seq ${state.lastSignedSeq} are not covered by a signature: the last event(s) were dropped, or added` };
  }
  if ((options.witnessKeys ?? []).length > 0 && state.lastCosignedSeq !== headSeq) {
    const since = state.lastCosignedSeq === undefined ? 'no event of the file is' : `the last event cosigned by one is seq ${state.lastCosignedSeq}`;
    return { ...(lastUid ? { uid: lastUid } : {}), reason: `the last event is not cosigned by a --witness-key (${since}): no witness you trust vouches for the file's end (export again once the witness has cosigned the chain's head)` };
  }
  return undefined;
}

export async function verifyOcsfLines(lines: Iterable<string> | AsyncIterable<string>, options: OcsfVerifyOptions): Promise<OcsfVerdict> {
  const state: State = { head: null, signers: new Set(), cosigners: new Set(), untrustedCosigners: new Set(), notes: [], trusted: new Set(options.trustedKeys), chains: [] };
  let lineNumber = 0;
  let events = 0;
  const verdict = (firstBad?: OcsfBadEvent): OcsfVerdict => ({
    ok: firstBad === undefined, events, chains: state.chains, head: state.head, signers: [...state.signers], cosigners: [...state.cosigners], notes: state.notes,
    ...(state.chain ? { chain: state.chain } : {}), ...(state.first !== undefined ? { first: state.first } : {}), ...(firstBad ? { firstBad } : {}),
  });
  for await (const line of lines) {
    lineNumber += 1;
    if (line === '') continue;
    const problem = eventProblem(line, lineNumber, state, options);
    if (problem) return verdict({ line: lineNumber, ...problem });
    events += 1;
  }
  const lastUid = state.chain && state.head ? eventUidOf(state.chain, state.head.seq) : undefined;
  const end = endProblem(state, events, lastUid, options);
  if (state.untrustedCosigners.size > 0) {
    state.notes.push(`cosignatures by witness key(s) ${[...state.untrustedCosigners].join(', ')} verify over their events but were not checked against a key you trust: name the witness's key with --witness-key (gw audit witness-key on the witness prints it)`);
  }
  return verdict(end ? { line: lineNumber + 1, ...end } : undefined);
}
