// The environment's part in device login: GW_TOKEN (a personal token that
// overrides any stored login, never written anywhere) with GW_HUB (its hub), and
// `env:NAME` secret references in hub settings (oidc_client_secret).

export interface TokenFromEnvironment {
  token: string;
  hub: string | null;
}

export function readTokenEnvironment(env: Record<string, string | undefined>): TokenFromEnvironment | null {
  const token = env.GW_TOKEN?.trim();
  if (!token) return null;
  const hub = env.GW_HUB?.trim().replace(/\/+$/, '') || null;
  return { token, hub };
}

/** `env:NAME` → the variable's value (null when unset); null for null. */
export function readSecretReference(reference: string | null, env: Record<string, string | undefined>): string | null {
  const name = reference === null ? null : /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(reference)?.[1];
  if (!name) return null;
  return env[name]?.trim() || null;
}
