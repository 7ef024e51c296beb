-- The console's request explorer over millions of records (issue 18): the fields it filters
-- and sums, taken from each request record's line into a small jsonb column and indexed with the
-- time, so "this person's last 100 calls" is an index range, not a scan of the trail.
--
-- The writer fills the column (src/postgres/request-facets.ts) with each record; the explorer
-- re-checks every row against its sealed line, and `gw audit verify --store` compares each
-- row's facets with its line's, so an edited facet is caught like an edited line.
-- Filling it for an existing trail rewrites gw_audit_records once: migrate in a quiet hour.

ALTER TABLE gw_audit_records ADD COLUMN facets jsonb;

-- Records written before this migration: their facets from their lines, once.
UPDATE gw_audit_records SET facets = (
  SELECT jsonb_strip_nulls(jsonb_build_object(
    'request_id', record->>'request_id', 'person', record->>'person', 'team', record->>'team', 'key_id', record->>'key_id',
    'model', record->>'model', 'provider', record->>'provider', 'operation', record->>'operation', 'status', record->>'status', 'status_class', left(record->>'status', 1) || 'xx',
    'input', record->'tokens'->'input', 'output', record->'tokens'->'output', 'cost_nano_usd', record->'cost'->'nano_usd', 'latency_ms', record->'latency_ms',
    'dlp_hits', CASE WHEN jsonb_typeof(record->'dlp') = 'object'
      THEN (SELECT nullif(sum(value::numeric), 0) FROM jsonb_each_text(record->'dlp') WHERE value ~ '^[0-9]+$') END
  ))
  FROM (SELECT line::jsonb AS record) AS parsed
) WHERE kind = 'request';

-- Newest first, with or without one filter; every index is partial to request records.
CREATE INDEX gw_audit_requests_ts ON gw_audit_records (ts) WHERE kind = 'request';
CREATE INDEX gw_audit_requests_id ON gw_audit_records ((facets->>'request_id')) WHERE kind = 'request';
CREATE INDEX gw_audit_requests_person ON gw_audit_records ((facets->>'person'), ts) WHERE kind = 'request';
CREATE INDEX gw_audit_requests_team ON gw_audit_records ((facets->>'team'), ts) WHERE kind = 'request';
CREATE INDEX gw_audit_requests_key ON gw_audit_records ((facets->>'key_id'), ts) WHERE kind = 'request';
CREATE INDEX gw_audit_requests_model ON gw_audit_records ((facets->>'model'), ts) WHERE kind = 'request';
CREATE INDEX gw_audit_requests_provider ON gw_audit_records ((facets->>'provider'), ts) WHERE kind = 'request';
CREATE INDEX gw_audit_requests_status ON gw_audit_records ((facets->>'status'), ts) WHERE kind = 'request';
CREATE INDEX gw_audit_requests_status_class ON gw_audit_records ((facets->>'status_class'), ts) WHERE kind = 'request';

-- What the planner knows of each facet (ANALYZE fills these): without them it guesses every
-- value matches 0.5% of rows and walks the time index instead of the facet's, which at
-- millions of rows turns a request-id lookup from a millisecond into seconds.
CREATE STATISTICS gw_audit_requests_id_stats ON (facets->>'request_id') FROM gw_audit_records;
CREATE STATISTICS gw_audit_requests_person_stats ON (facets->>'person') FROM gw_audit_records;
CREATE STATISTICS gw_audit_requests_team_stats ON (facets->>'team') FROM gw_audit_records;
CREATE STATISTICS gw_audit_requests_key_stats ON (facets->>'key_id') FROM gw_audit_records;
CREATE STATISTICS gw_audit_requests_model_stats ON (facets->>'model') FROM gw_audit_records;
CREATE STATISTICS gw_audit_requests_provider_stats ON (facets->>'provider') FROM gw_audit_records;
CREATE STATISTICS gw_audit_requests_status_stats ON (facets->>'status') FROM gw_audit_records;
CREATE STATISTICS gw_audit_requests_status_class_stats ON (facets->>'status_class') FROM gw_audit_records;
