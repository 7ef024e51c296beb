-- The console's session view over millions of records (issue 29, lineage): a session's calls and
-- the list of recent sessions as index ranges instead of a substring scan of every request line.
--
-- The writer already stores the session in the facets (src/postgres/cache-facets.ts) for every
-- request record written since the prompt-cache facets; those rows are found through the first
-- index. Rows written before have no `session` facet key (nothing is filled in here: that would
-- rewrite the trail, and verify --store compares such a row's facets without the cache ones). The
-- few of them whose line names a session are kept in the second index, a partial one on exactly
-- "no session facet, and the line has a session field": every newer row has the facet when its
-- line has a session, so that index stays as small as the old trail's sessions and never grows
-- with new traffic. Reading both is the whole set (src/postgres/postgres-session-records.ts).
-- Building the indexes reads the trail once: migrate in a quiet hour.

CREATE INDEX gw_audit_requests_session ON gw_audit_records ((facets->>'session'), ts) WHERE kind = 'request' AND facets ? 'session';
CREATE INDEX gw_audit_requests_session_unfaceted ON gw_audit_records (ts)
  WHERE kind = 'request' AND NOT (facets ? 'session') AND strpos(line, '"session":"') > 0;

CREATE STATISTICS gw_audit_requests_session_stats ON (facets->>'session') FROM gw_audit_records;
