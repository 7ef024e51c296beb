// Why a request to the hub never got an answer, in words a person can act on.
// undici's fetch says only "fetch failed"; the reason is in `cause.code` (a Node
// system error, an undici UND_ERR_* code, or an OpenSSL code) or, for fetch's
// own refusals such as a blocked port, only in `cause.message`.

const BY_CODE: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens at that address and port (is gw serve running there?)',
  ENOTFOUND: 'DNS name not found: check the host name',
  EAI_AGAIN: 'DNS lookup failed for now (no network, or the DNS server did not answer)',
  ECONNRESET: 'the connection was reset by the hub or a proxy on the way',
  EHOSTUNREACH: 'no route to the host (network down, or a firewall)',
  ENETUNREACH: 'the network is unreachable (no connection?)',
  ETIMEDOUT: 'time-out while connecting (a firewall, or the host is down)',
  UND_ERR_CONNECT_TIMEOUT: 'time-out while connecting (a firewall, or the host is down)',
  UND_ERR_HEADERS_TIMEOUT: 'time-out: the hub accepted the connection but did not answer',
  UND_ERR_SOCKET: 'the connection closed before the hub answered',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS error: the server does not speak https on that port (try http://?)',
};

interface CodedError { name?: unknown; message?: unknown; code?: unknown; cause?: unknown }

function asCoded(value: unknown): CodedError | null {
  return typeof value === 'object' && value !== null ? value : null;
}

/** A short reason, with the machine code in brackets when there is one; never the request's body or headers. */
export function describeNetworkFailure(error: unknown, timeoutMs: number): string {
  const outer = asCoded(error);
  // AbortSignal.timeout() rejects with a DOMException named TimeoutError, without a cause.
  if (outer?.name === 'TimeoutError') return `time-out: no answer within ${timeoutMs / 1000} s`;
  const cause = asCoded(outer?.cause) ?? outer;
  const code = typeof cause?.code === 'string' ? cause.code : null;
  const message = typeof cause?.message === 'string' ? cause.message : String(error);
  if (code !== null && BY_CODE[code]) return `${BY_CODE[code]} [${code}]`;
  // Certificate problems: CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID, ERR_SSL_*…
  if (code !== null && /CERT|SSL|TLS/.test(code)) return `TLS error: ${message.split('\n')[0]} [${code}]`;
  // The Fetch standard blocks some ports (1, 25, 6000…) before any connection is tried.
  if (message === 'bad port') return 'fetch refuses that port (the Fetch standard blocks it as unsafe): use another port';
  return code !== null ? `${message} [${code}]` : message;
}
