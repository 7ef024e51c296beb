// The searched and summed fields of a request record, stored beside its line in
// gw_audit_records.facets (migration 0002) so the console's explorer filters with an index
// instead of reading lines. Made here, in the writer, rather than generated in SQL: parsing
// each line in PostgreSQL cost about 100 µs per record, this costs about one. A facet is only
// a copy: the explorer re-checks every row against its line, and `gw audit verify --store`
// compares each row's facets with the ones its line gives, so an edited facet is caught too.
import { isDeepStrictEqual } from 'node:util';
import { cacheFacets, storedBeforeCacheFacets, withoutCacheFacets, type CacheFacetFields, type CacheFacets } from './cache-facets.js';

export interface RequestFacets extends CacheFacets {
  request_id?: string;
  person?: string;
  team?: string;
  key_id?: string;
  model?: string;
  provider?: string;
  status?: string;
  status_class?: string;
  input?: number;
  output?: number;
  cost_nano_usd?: number;
  dlp_hits?: number;
  latency_ms?: number;
  operation?: string;
}

interface RecordFields extends CacheFacetFields {
  kind?: unknown; request_id?: unknown; operation?: unknown; person?: unknown; team?: unknown; key_id?: unknown; model?: unknown; provider?: unknown;
  status?: unknown; latency_ms?: unknown; tokens?: { input?: unknown; output?: unknown; cached_read?: unknown; cache_write?: unknown };
  cost?: { nano_usd?: unknown; cache_saved_nano_usd?: unknown }; dlp?: unknown;
}

const TEXT_FIELDS = ['request_id', 'person', 'team', 'key_id', 'model', 'provider', 'operation'] as const;

/** The facets of a request record; null for any other kind. */
export function requestFacets(record: RecordFields): RequestFacets | null {
  if (record.kind !== 'request') return null;
  const facets: RequestFacets = {};
  for (const name of TEXT_FIELDS) {
    const value = record[name];
    if (typeof value === 'string') facets[name] = value;
  }
  if (typeof record.status === 'number') {
    facets.status = String(record.status);
    facets.status_class = `${facets.status[0]}xx`;
  }
  if (typeof record.latency_ms === 'number') facets.latency_ms = record.latency_ms;
  if (typeof record.tokens?.input === 'number') facets.input = record.tokens.input;
  if (typeof record.tokens?.output === 'number') facets.output = record.tokens.output;
  if (typeof record.cost?.nano_usd === 'number') facets.cost_nano_usd = record.cost.nano_usd;
  if (record.dlp && typeof record.dlp === 'object') {
    const hits = Object.values(record.dlp).reduce<number>((sum, count) => sum + (typeof count === 'number' ? count : 0), 0);
    if (hits > 0) facets.dlp_hits = hits;
  }
  return { ...facets, ...cacheFacets(record) };
}

/** Whether a row's stored facets are the ones its line gives (verify --store). */
export function facetsAgree(line: string, stored: unknown): boolean {
  let record: RecordFields;
  try {
    record = JSON.parse(line) as RecordFields;
  } catch {
    return true; // a line that is not JSON is the chain verifier's finding, not this one's
  }
  const facets = requestFacets(record);
  return isDeepStrictEqual(facets !== null && storedBeforeCacheFacets(stored) ? withoutCacheFacets(facets) : facets, stored ?? null);
}
