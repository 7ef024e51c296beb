// A credential is bound to the host it was configured for (issue 26): a provider's key, an MCP
// server's headers, a routing target's key and the OIDC client secret each record the host
// (`key_host`, `credential_host`) their URL named when the credential was set. Whatever sends
// a credential checks it still goes there: a URL moved to another host does not carry it along.

/** The host (name and port, lower-case) a URL names; null for anything that is not a URL. */
export function hostOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** Whether a credential bound to `bound` may go to `url`: unbound (older state) goes where it always went. */
export function boundHostAllows(bound: string | undefined, url: string): boolean {
  return bound === undefined || hostOf(url) === bound;
}
