// What a hub endpoint answers, independent of the HTTP framework: src/server
// turns it into a fastify reply. OAuth answers are JSON with no-store (RFC 6749 §5.1).

export interface HubReply {
  status: number;
  headers: Record<string, string>;
  /** JSON text or an HTML page. */
  body: string;
  /**
   * Set on the token endpoint's RFC 8628 "keep polling" answers (authorization_pending,
   * slow_down): HTTP 400 by the RFC, yet a login in progress, not a failed request, so
   * metrics count them apart from the 4xx errors.
   */
  polling?: 'authorization_pending' | 'slow_down';
}

export interface HubRequest {
  ip: string;
  userAgent: string;
  /** The form body (POST), or the query (GET). */
  params: URLSearchParams;
  cookies: Record<string, string>;
  /** Where people reach this hub: the public_url setting, or scheme://host of the request. */
  baseUrl: string;
}

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

export function jsonReply(status: number, body: Record<string, unknown>): HubReply {
  return { status, headers: { ...NO_STORE, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) };
}

/** RFC 6749 §5.2 / RFC 8628 §3.5 error: `error` is the machine code, the description is for people. */
export function oauthError(error: string, description: string, status = 400): HubReply {
  return jsonReply(status, { error, error_description: description });
}

/** `scriptNonce`: the one inline script the page may run (a fresh random value per reply); null, none. */
export function htmlReply(status: number, html: string, headers: Record<string, string> = {}, scriptNonce: string | null = null): HubReply {
  const scripts = scriptNonce === null ? '' : `script-src 'nonce-${scriptNonce}'; `;
  return {
    status,
    headers: {
      ...NO_STORE, 'content-type': 'text/html; charset=utf-8',
      // No script but the page's own nonce'd one, and no framing (clickjacking of the Approve button).
      'content-security-policy': `default-src 'none'; ${scripts}style-src 'unsafe-inline'; form-action 'self' https: http:; frame-ancestors 'none'`,
      'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer',
      ...headers,
    },
    body: html,
  };
}

export function redirectReply(location: string, headers: Record<string, string> = {}): HubReply {
  return { status: 303, headers: { ...NO_STORE, location, ...headers }, body: '' };
}

/** One printable line of at most `max` characters, for what clients report about themselves. */
export function cleanLine(value: string | undefined | null, max = 200): string {
  return (value ?? '').replace(/[^\x20-\x7e]/g, '').slice(0, max);
}
