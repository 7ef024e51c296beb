// Refused credentials in the request explorer (issue 40): the door does not write a request record
// per refusal (a flood of made-up keys would flood the trail); it writes each origin's first refusal
// (auth.refused) and a summary per window (auth.refused_burst). Each is listed as one 401 row: the
// path, why (no key, a wrong key, a revoked or expired one), the refused key's hint and id when gw
// knows it, never the key. The explorer's result filter finds them as `refused`.

import { isPlainObject } from '../is-plain-object.js';

/** What a refusal row holds (a RequestSummary of trail-reader.ts, which lists it). */
export interface RefusalRow {
  seq: number;
  ts: string;
  operation: string;
  route?: string;
  status: number;
  outcome: string[];
  key_id?: string;
  key_hint?: string;
  data: Record<string, unknown>;
}

const CODES: Record<string, string> = { missing: 'GW_ERR_AUTH_MISSING', required: 'GW_ERR_AUTH_REQUIRED', ambiguous: 'GW_ERR_AUTH_AMBIGUOUS' };

interface RefusalLine {
  kind?: unknown;
  seq?: unknown;
  ts?: unknown;
  data?: { count?: unknown; paths?: unknown; reasons?: unknown; keys?: unknown; key_ids?: unknown; last_ts?: unknown };
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

/** An auth.refused or auth.refused_burst line as a 401 row; null for any other line. */
export function toRefusalSummary(line: string): RefusalRow | null {
  let parsed: unknown;
  try { parsed = JSON.parse(line); } catch { return null; }
  if (!isPlainObject(parsed)) return null;
  const record: RefusalLine = parsed;
  if ((record.kind !== 'auth.refused' && record.kind !== 'auth.refused_burst') || typeof record.seq !== 'number' || typeof record.ts !== 'string') return null;
  const data = record.data ?? {};
  const reasons = typeof data.reasons === 'object' && data.reasons !== null ? Object.keys(data.reasons) : [];
  const [path] = strings(data.paths);
  const [hint] = strings(data.keys);
  const [keyId] = strings(data.key_ids);
  return {
    seq: record.seq, ts: record.ts, operation: 'auth', status: 401,
    outcome: [...new Set(reasons.map((reason) => CODES[reason] ?? 'GW_ERR_AUTH_INVALID'))],
    ...(path === undefined ? {} : { route: path }),
    ...(keyId === undefined ? {} : { key_id: keyId }),
    ...(hint === undefined ? {} : { key_hint: hint }),
    data: { refused: record.kind, count: typeof data.count === 'number' ? data.count : 1, reasons: data.reasons ?? {}, paths: strings(data.paths), keys: strings(data.keys), key_ids: strings(data.key_ids) },
  };
}
