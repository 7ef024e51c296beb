// Routing rules in state.json: a name clients use as a model, mapped to weighted
// targets. Several targets may be one provider with different keys (`key` is an
// `env:NAME` reference or a literal), spreading load and rate limits.

export interface RouteTarget {
  /** `provider/model`. */
  model: string;
  weight: number;
  /** This target's own provider key: `env:NAME` (from gw's environment) or a literal. */
  key?: string;
  /** The host the target's provider named when the key was set (src/state/bound-host.ts). */
  key_host?: string;
  /** Give up on this target after this long without response headers, then fall back. */
  timeout_ms?: number;
}

export interface RouteRule {
  name: string;
  targets: RouteTarget[];
  /** Extra tries of the same target before falling back (429/5xx/time-out/connection). */
  retries?: number;
  /** Fall back to the next target after the tries (default true). */
  fallback?: boolean;
}

export const ROUTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/;
