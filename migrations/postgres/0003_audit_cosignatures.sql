-- Witnesses' cosignatures of the chains' checkpoints (issue 27): a witness with a key of its own
-- (a gw hub) answers each checkpoint it accepts with its Ed25519 signature over the chain id, seq
-- and hash; the instance keeps it here, beside the chain, and `gw audit export --format ocsf
-- --store` puts it in the events' attestation. One row per witness key and checkpoint. The
-- instance's own checkpoint signature at that seq is kept with it, so an export signs the record
-- even after the chain's head moved on. A row needs no protection of its own: an edited one no
-- longer verifies under the witness's key. Nothing to fill for chains written before: they were
-- not cosigned.

CREATE TABLE gw_audit_cosignatures (
  trail text NOT NULL,
  seq bigint NOT NULL,
  hash text NOT NULL,
  closed boolean NOT NULL DEFAULT false,
  public_key text NOT NULL,
  checkpoint_signature text NOT NULL,
  witness_public_key text NOT NULL,
  signature text NOT NULL,
  witness text NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (trail, seq, witness_public_key)
);
