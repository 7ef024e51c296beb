// The request records of an audit trail, read line by line (read-only; the trail's owner is
// src/audit). Lines that cannot be request records are skipped by a substring test before any
// JSON.parse, so reading a long trail costs little more than reading its bytes.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { AuditRecord } from '../audit/record.js';

export type RequestRecord = Pick<AuditRecord, 'ts' | 'request_id' | 'team' | 'key_id' | 'person' | 'model' | 'provider' | 'rule' | 'tokens' | 'cost' | 'status' | 'operation'
  | 'seq' | 'session' | 'agent' | 'outcome' | 'data' | 'latency_ms' | 'family'>;

/** `since`: records older than this are skipped (the trail is in time order, but a skip is cheap). */
export async function* readRequestRecords(file: string, since?: Date): AsyncGenerator<RequestRecord> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const sinceIso = since?.toISOString();
  try {
    for await (const line of lines) {
      const record = parseRequestLine(line, sinceIso);
      if (record) yield record;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}

/** One trail line as a request record, or null (another kind, unparsable, before `sinceIso`). */
export function parseRequestLine(line: string, sinceIso?: string): RequestRecord | null {
  if (!line.includes('"kind":"request"')) return null;
  let record: RequestRecord & { kind?: string };
  try { record = JSON.parse(line) as RequestRecord & { kind?: string }; } catch { return null; }
  if (record.kind !== 'request' || typeof record.ts !== 'string') return null;
  if (sinceIso !== undefined && record.ts < sinceIso) return null;
  return record;
}
