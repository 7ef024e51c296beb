-- gw's state on PostgreSQL (issue 15). Applied by `gw db migrate`; a gw checks the
-- version at start and refuses a schema newer than it knows.

-- Governance state (teams, people, key digests, tokens, device codes, policies, DLP rules,
-- routes, providers, settings, license) as one versioned document: it is small, read from
-- each instance's cache on every request and written only by admin acts, so one row
-- locked per change gives serial updates with no lock-order deadlocks.
CREATE TABLE gw_state (
  id smallint PRIMARY KEY CHECK (id = 1),
  version bigint NOT NULL,
  data jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Secrets every instance must share (the hub secret that derives live keys and signs
-- session credentials). Written once, first writer wins.
CREATE TABLE gw_secrets (
  name text PRIMARY KEY,
  value bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Which provider created a resource id (file, batch, response, video, container), so a
-- follow-up through any instance reaches the same upstream.
CREATE TABLE gw_resource_ids (
  id text PRIMARY KEY,
  provider text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX gw_resource_ids_created_at ON gw_resource_ids (created_at);

-- The audit trail: one hash chain per instance boot, so writers never wait on each other.
-- head_* is the checkpoint, moved in the same transaction as the records it covers.
CREATE TABLE gw_audit_chains (
  chain_id uuid PRIMARY KEY,
  instance text NOT NULL,
  started_at timestamptz NOT NULL,
  head_seq bigint NOT NULL DEFAULT 0,
  head_hash text NOT NULL,
  checkpoint jsonb
);

CREATE TABLE gw_audit_records (
  chain_id uuid NOT NULL REFERENCES gw_audit_chains (chain_id),
  seq bigint NOT NULL,
  ts timestamptz NOT NULL,
  kind text NOT NULL,
  line text NOT NULL,
  PRIMARY KEY (chain_id, seq)
);
CREATE INDEX gw_audit_records_ts ON gw_audit_records (ts);
