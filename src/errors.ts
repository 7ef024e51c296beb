// The one error catalog. Every refusal gw produces has a code here; each wire
// format turns a GatewayError into its own shape in exactly one place
// (src/formats/<dialect>/encode-error.ts). Imports nothing from src/.

/** How a client family classifies an error; each dialect maps this to its own type names. */
export type ErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limit'
  // A spend budget that is spent: no retry passes before it resets (docs/errors.md, "Budget refusals").
  | 'budget'
  | 'not_implemented'
  | 'api_error'
  | 'overloaded'
  | 'timeout';

export interface CatalogEntry {
  status: number;
  kind: ErrorKind;
  retryable: boolean;
  /** Default message; callers may pass a more precise one. Never includes a secret. */
  message: string;
}

export const ERROR_CATALOG = {
  GW_ERR_AUTH_MISSING: {
    status: 401, kind: 'authentication', retryable: false,
    message: 'No gw credential: send a virtual key (sk-gw-…) in x-gw-vk, Authorization: Bearer, x-api-key, api-key or x-goog-api-key.',
  },
  GW_ERR_AUTH_NOT_GW_KEY: {
    status: 401, kind: 'authentication', retryable: false,
    message: 'A credential was sent, but it is not a gw key: gw keys look like sk-gw-… (gw keys create, or gw token on a laptop). A provider\'s own key (sk-ant-…, sk-proj-…, AIza…) belongs in gw providers add, not in the request.',
  },
  GW_ERR_AUTH_INVALID: {
    status: 401, kind: 'authentication', retryable: false,
    message: 'The gw credential is not valid (unknown, revoked, expired or malformed).',
  },
  GW_ERR_AUTH_REQUIRED: {
    status: 401, kind: 'authentication', retryable: false,
    message: 'This gateway enforces authentication: send your virtual key in the x-gw-vk header (or Authorization: Bearer sk-gw-…).',
  },
  GW_ERR_AUTH_AMBIGUOUS: {
    status: 400, kind: 'invalid_request', retryable: false,
    message: 'The request carries more than one different gw credential; send exactly one.',
  },
  GW_ERR_AUTH_FOREIGN_HOST: {
    status: 403, kind: 'permission', retryable: false,
    message: 'This gw sidecar answers only requests addressed to a loopback name (Host: localhost, 127.0.0.1 or [::1]); others are refused to stop DNS rebinding.',
  },
  GW_ERR_AUTH_CROSS_ORIGIN: {
    status: 403, kind: 'permission', retryable: false,
    message: 'This gw sidecar refuses requests sent by web pages of other origins (Origin / Sec-Fetch-Site).',
  },
  GW_ERR_AUTH_REMOTE_PEER: {
    status: 403, kind: 'permission', retryable: false,
    message: 'This gw sidecar serves its person only to this machine and the addresses its --allow-remote-peer CIDRs name; this connection comes from another.',
  },
  GW_ERR_HUB_UNAVAILABLE: {
    status: 503, kind: 'overloaded', retryable: true,
    message: 'The gw hub could not be reached and this sidecar holds no valid hub credential yet; retry shortly.',
  },
  GW_ERR_AUTH_LOGGED_OUT: {
    status: 401, kind: 'authentication', retryable: false,
    message: 'This gw sidecar is logged out (gw logout): run gw login; the running sidecar picks the new login up within seconds, no restart needed.',
  },
  GW_ERR_REQUEST_MALFORMED_JSON: {
    status: 400, kind: 'invalid_request', retryable: false,
    message: 'The request body is not valid JSON.',
  },
  GW_ERR_REQUEST_EMPTY_BODY: {
    status: 400, kind: 'invalid_request', retryable: false,
    message: 'The request body is empty; a JSON object is required.',
  },
  GW_ERR_REQUEST_INVALID: {
    status: 400, kind: 'invalid_request', retryable: false,
    message: 'The request is not valid.',
  },
  GW_ERR_REQUEST_UNSUPPORTED_MEDIA_TYPE: {
    status: 415, kind: 'unsupported_media_type', retryable: false,
    message: 'Unsupported Content-Type: send application/json (UTF-8).',
  },
  GW_ERR_REQUEST_TOO_LARGE: {
    status: 413, kind: 'payload_too_large', retryable: false,
    message: 'The request body is larger than this gateway accepts.',
  },
  GW_ERR_REQUEST_TIMEOUT: {
    status: 408, kind: 'timeout', retryable: true,
    message: 'The request was not received in time.',
  },
  GW_ERR_ROUTE_NOT_FOUND: {
    status: 404, kind: 'not_found', retryable: false,
    message: 'No such route on this gateway.',
  },
  GW_ERR_CLAUDE_SETTINGS_NONE: {
    status: 404, kind: 'not_found', retryable: false,
    message: 'No Claude Code managed settings for your team on this hub (an admin sets them with gw claude-settings set).',
  },
  GW_ERR_ROUTE_METHOD_NOT_ALLOWED: {
    status: 405, kind: 'invalid_request', retryable: false,
    message: 'This method is not allowed on this route.',
  },
  GW_ERR_OPERATION_NOT_IMPLEMENTED: {
    status: 501, kind: 'not_implemented', retryable: false,
    message: 'This operation is not implemented by this gateway yet.',
  },
  GW_ERR_TRANSPORT_UPGRADE_REQUIRED: {
    status: 426, kind: 'invalid_request', retryable: false,
    message: 'GET /v1/responses is the Responses WebSocket: connect with Upgrade: websocket, or POST /v1/responses.',
  },
  GW_ERR_MODEL_NOT_FOUND: {
    status: 404, kind: 'not_found', retryable: false,
    message: 'Unknown model.',
  },
  GW_ERR_PROVIDER_NOT_CONFIGURED: {
    status: 404, kind: 'not_found', retryable: false,
    message: 'No provider is configured for this request.',
  },
  GW_ERR_PROVIDER_OPERATION_UNSUPPORTED: {
    status: 400, kind: 'invalid_request', retryable: false,
    message: 'The provider does not offer this operation.',
  },
  GW_ERR_PROVIDER_TOKEN_UNAVAILABLE: {
    status: 502, kind: 'api_error', retryable: true,
    message: 'gw could not get an access token for the provider from its credentials.',
  },
  GW_ERR_TRANSLATION_UNAVAILABLE: {
    status: 501, kind: 'not_implemented', retryable: false,
    message: 'Translating between these two wire formats is not available yet.',
  },
  GW_ERR_TRANSLATION_COMPACTION: {
    status: 400, kind: 'invalid_request', retryable: false,
    message: "Compaction items (compaction_trigger, compaction) only work with an OpenAI Responses provider; this model's provider speaks another format.",
  },
  GW_ERR_POLICY_DENIED: {
    status: 403, kind: 'permission', retryable: false,
    message: 'A gateway policy refuses this request.',
  },
  GW_ERR_POLICY_MODEL_UNREADABLE: {
    status: 403, kind: 'permission', retryable: false,
    message: 'A model list applies to this caller, and gw cannot read the model this call runs, so it is refused.',
  },
  GW_ERR_POLICY_RATE_LIMITED: {
    status: 429, kind: 'rate_limit', retryable: true,
    message: 'A gateway rate limit is exceeded; retry after the time in retry-after.',
  },
  GW_ERR_DLP_BLOCKED: {
    status: 403, kind: 'permission', retryable: false,
    message: 'A data-loss-prevention rule blocked this request.',
  },
  GW_ERR_DLP_UNSCANNED: {
    status: 403, kind: 'permission', retryable: false,
    message: 'This upload carries a part DLP cannot read (setting unscanned_uploads is refuse); send text, JSON or JSON Lines, or ask an admin.',
  },
  GW_ERR_GUARDRAIL_BLOCKED: {
    status: 403, kind: 'permission', retryable: false,
    message: 'A guardrail refused this request.',
  },
  GW_ERR_GUARDRAIL_UNAVAILABLE: {
    status: 503, kind: 'overloaded', retryable: true,
    message: 'A guardrail set to fail closed did not give a verdict (it timed out, failed or answered something unreadable).',
  },
  GW_ERR_DIRECT_KEY_DISABLED: {
    status: 403, kind: 'permission', retryable: false,
    message: 'x-gw-direct-key is not allowed on this gateway (setting allow_direct_keys is off); remove the header and use the gateway\'s provider keys.',
  },
  GW_ERR_DIRECT_KEY_MISSING: {
    status: 400, kind: 'invalid_request', retryable: false,
    message: 'x-gw-direct-key: true needs the provider key in Authorization: Bearer (a provider key, not a gw key).',
  },
  GW_ERR_AUDIT_UNAVAILABLE: {
    status: 503, kind: 'overloaded', retryable: true,
    message: 'The audit trail cannot be written, so requests are refused (setting audit_failure=block).',
  },
  GW_ERR_STATE_UNAVAILABLE: {
    status: 503, kind: 'overloaded', retryable: true,
    message: 'The shared state store (PostgreSQL) has not been reachable for several seconds, so a revoked credential could still look valid: requests are refused until it answers (setting audit_failure=block).',
  },
  GW_ERR_LIMITS_UNAVAILABLE: {
    status: 503, kind: 'overloaded', retryable: true,
    message: 'The shared rate-limit counters (Redis) cannot be reached, so calls a rate limit applies to are refused (setting limits_when_redis_down=closed).',
  },
  GW_ERR_SERVER_SHUTTING_DOWN: {
    status: 503, kind: 'overloaded', retryable: true,
    message: 'The gateway is shutting down.',
  },
  GW_ERR_UPSTREAM_UNREACHABLE: {
    status: 502, kind: 'api_error', retryable: true,
    message: 'The provider could not be reached.',
  },
  GW_ERR_UPSTREAM_TIMEOUT: {
    status: 504, kind: 'timeout', retryable: true,
    message: 'The provider did not answer in time.',
  },
  GW_ERR_UPSTREAM_BAD_RESPONSE: {
    status: 502, kind: 'api_error', retryable: true,
    message: 'The provider sent a response gw could not read.',
  },
  GW_ERR_UPSTREAM_REJECTED: {
    status: 502, kind: 'api_error', retryable: false,
    message: 'The provider refused the request.',
  },
  GW_ERR_UPSTREAM_LOOP: {
    status: 508, kind: 'invalid_request', retryable: false,
    message: 'The request has passed through too many gateways (loop detected).',
  },
  GW_ERR_SERVER_MEMORY_BUSY: {
    status: 503, kind: 'overloaded', retryable: true,
    message: 'The gateway already holds as many request bodies in memory as it may (setting inflight_body_bytes); retry after the time in retry-after.',
  },
  GW_ERR_KEY_MEMORY_BUSY: {
    status: 429, kind: 'rate_limit', retryable: true,
    message: 'This credential already has as many request bodies in flight as it may (setting inflight_body_bytes_per_key); retry after the time in retry-after.',
  },
  GW_ERR_SERVER_INTERNAL: {
    status: 500, kind: 'api_error', retryable: true,
    message: 'Internal gateway error.',
  },
  GW_ERR_AUDIT_WITNESS_CONFLICT: {
    status: 409, kind: 'invalid_request', retryable: false,
    message: 'The witness holds this audit trail under another key, or another record at this seq; the checkpoint was kept as evidence, not accepted.',
  },
  GW_ERR_AUDIT_WITNESS_FORBIDDEN: {
    status: 403, kind: 'permission', retryable: false,
    message: 'This audit trail was first witnessed for another team or person.',
  },
  GW_ERR_AUDIT_WITNESS_ROLLBACK: {
    status: 503, kind: 'overloaded', retryable: false,
    message: 'gw did not start: the local audit trail is behind what its witness holds (cut, rolled back, deleted or replaced while gw was stopped). Keep it for investigation; to start anyway and record the gap, run gw serve --accept-audit-gap.',
  },
  GW_ERR_AUDIT_ROTATE_BEHIND_WITNESS: {
    status: 409, kind: 'invalid_request', retryable: false,
    message: 'gw audit rotate changed nothing: the chain to close is behind or forked from what its witness holds (cut, rolled back or rewritten). Keep it for investigation (gw audit verify --witness); to rotate anyway and record the gap, run gw audit rotate --accept-audit-gap.',
  },
  GW_ERR_MCP_SERVER_UNAVAILABLE: {
    status: 502, kind: 'api_error', retryable: true,
    message: 'The MCP server behind this tool is not reachable now (gw restarts a stdio server that died; see /health).',
  },
  GW_ERR_MCP_NOT_FOUND: {
    status: 404, kind: 'not_found', retryable: false,
    message: 'No MCP server, tool, prompt or resource of that name is configured on this gateway (names are SERVER__NAME).',
  },
  GW_ERR_MCP_BATCH: {
    status: 400, kind: 'invalid_request', retryable: false,
    message: "gw's /mcp takes one JSON-RPC message per HTTP request (the current MCP revision has no batches), so that each tool call is its own audit record; send the messages one at a time.",
  },
  GW_ERR_MCP_HEADER_MISMATCH: {
    status: 400, kind: 'invalid_request', retryable: false,
    message: "The request's Mcp-Method or Mcp-Name header and its JSON-RPC body disagree (or a 2026-07-28 request left them out); gw decides on the headers before it reads the body, so they must name the body's method and target.",
  },
  GW_ERR_MCP_SESSION_NOT_FOUND: {
    status: 404, kind: 'not_found', retryable: false,
    message: 'No MCP session with that id for this credential; start a new session (initialize).',
  },
  GW_ERR_BUDGET_EXCEEDED: {
    // 402, not 429: the official SDKs and Claude Code retry 429 and 5xx, and no retry passes before the reset.
    status: 402, kind: 'budget', retryable: false,
    message: 'A hard spend budget has not enough left for this call; it passes again once the budget resets or is raised.',
  },
  GW_ERR_BUDGET_UNPRICED: {
    status: 403, kind: 'permission', retryable: false,
    message: 'A hard spend budget applies, but this model has no known price, so the call cannot be held against it (gw prices set gives it one).',
  },
  GW_ERR_ADMIN_ROLE_REFUSED: {
    status: 403, kind: 'permission', retryable: false,
    message: 'This admin credential\'s role does not allow this: a viewer only reads, a team_admin changes only their own teams\' people, keys, budgets and policies.',
  },
  GW_ERR_USAGE_UNKNOWN_TIME_ZONE: {
    status: 400, kind: 'invalid_request', retryable: false,
    message: 'Unknown time zone for the usage report\'s days: an IANA zone name such as America/Los_Angeles or Europe/Berlin, or UTC.',
  },
} as const satisfies Record<string, CatalogEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export interface GatewayErrorOptions {
  message?: string;
  headers?: Record<string, string>;
  param?: string;
  cause?: unknown;
  /** Only for GW_ERR_UPSTREAM_REJECTED: the provider's status and kind. */
  status?: number;
  kind?: ErrorKind;
}

/** A refusal or failure with a catalog code; safe to show to the client. */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly kind: ErrorKind;
  readonly retryable: boolean;
  /** Extra response headers (retry-after, www-authenticate). */
  readonly headers: Record<string, string>;
  /** The request field the error is about, when there is one (OpenAI's `param`). */
  readonly param: string | undefined;

  constructor(code: ErrorCode, options: GatewayErrorOptions = {}) {
    const entry: CatalogEntry = ERROR_CATALOG[code];
    super(options.message ?? entry.message, { cause: options.cause });
    this.name = 'GatewayError';
    this.code = code;
    // A provider's own refusal keeps its honest status and kind when re-encoded for another dialect.
    this.status = options.status ?? entry.status;
    this.kind = options.kind ?? entry.kind;
    this.retryable = entry.retryable;
    this.headers = options.headers ?? {};
    this.param = options.param;
  }
}

/** `GW_ERR_AUTH_MISSING` → `auth_missing`: the snake-case code OpenAI-shaped bodies carry. */
export function toSnakeCode(code: ErrorCode): string {
  return code.replace(/^GW_ERR_/, '').toLowerCase();
}
