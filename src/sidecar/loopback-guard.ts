// The sidecar listens on 127.0.0.1 and serves without a credential, so two
// browser attacks matter: DNS rebinding (a page whose host name now resolves to
// 127.0.0.1 sends Host: evil.example) and plain cross-origin requests from a
// page. Host must be a loopback name; a browser request must be same-origin.

export type LocalRefusal = 'foreign-host' | 'cross-origin' | null;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostName(hostHeader: string): string {
  // "[::1]:8080" → "[::1]"; "localhost:8080" → "localhost".
  const match = /^(\[[^\]]+\]|[^:]+)(?::\d{1,5})?$/.exec(hostHeader.trim().toLowerCase());
  return match?.[1]?.replace(/\.$/, '') ?? '';
}

export function isLoopbackHost(hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  const name = hostName(hostHeader);
  return LOOPBACK_HOSTS.has(name) || name.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(name);
}

/** Why a request to the sidecar is refused, or null. `headers` are lowercased request headers. */
export function checkLocalRequest(headers: Record<string, string | string[] | undefined>): LocalRefusal {
  const host = headers.host;
  if (typeof host !== 'string' || !isLoopbackHost(host)) return 'foreign-host';
  // Browsers send Sec-Fetch-Site on every request (Fetch Metadata); tools and SDKs do not.
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return 'cross-origin';
  const origin = headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    try {
      if (new URL(origin).host !== host.toLowerCase()) return 'cross-origin';
    } catch {
      return 'cross-origin';
    }
  } else if (origin === 'null') {
    return 'cross-origin';
  }
  return null;
}
