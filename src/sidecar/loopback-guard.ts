// Stage 2, the local guard (README, "One request, step by step"). A gw that serves
// calls without a credential (a sidecar as its logged-in person, or any gw with the
// default_team setting) is exposed to two
// browser attacks: DNS rebinding (a page whose host name now resolves to
// 127.0.0.1 sends Host: evil.example) and plain cross-origin requests from a
// page. Host must be a loopback name; a browser request must be same-origin.

export type LocalRefusal = 'foreign-host' | 'cross-origin' | null;

/** What decides whether the guard applies to one HTTP request or WebSocket upgrade. */
export interface GuardScope {
  /** A sidecar: it binds loopback and is its person, so everything it answers is guarded. */
  loopbackOnly: boolean;
  /** The route serves calls (not /health, /metrics or HEAD /). */
  servesCalls: boolean;
  /** Without a credential the call would be served: enforce_auth off and default_team (or a default person) set. Read live. */
  servesDefaultIdentity: () => boolean;
  /** The call carries a gw credential of its own (sk-gw- key or atu- token); read only when needed. */
  ownCredential: () => boolean;
}

/**
 * The rule (the same for requests and upgrades): a sidecar guards every request and
 * upgrade; any other gw guards a call it would serve on its default identity, i.e.
 * one with no credential of its own. A call with its own key or token is served as
 * that key's owner, which a web page cannot borrow, so it is not affected.
 */
export function isGuarded(scope: GuardScope): boolean {
  if (scope.loopbackOnly) return true;
  return scope.servesCalls && scope.servesDefaultIdentity() && !scope.ownCredential();
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostName(hostHeader: string): string {
  // "[::1]:8080" → "[::1]"; "localhost:8080" → "localhost".
  const match = /^(\[[^\]]+\]|[^:]+)(?::\d{1,5})?$/.exec(hostHeader.trim().toLowerCase());
  return match?.[1]?.replace(/\.$/, '') ?? '';
}

function isLoopbackHost(hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  const name = hostName(hostHeader);
  return LOOPBACK_HOSTS.has(name) || name.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(name);
}

/** An address `gw serve --host` binds that only this machine can reach. */
export function isLoopbackAddress(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(name);
}

/** Why a guarded request is refused, or null. `headers` are lowercased request headers. */
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
