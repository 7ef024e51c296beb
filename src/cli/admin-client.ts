// The CLI's side of remote administration: `gw keys create --hub URL …` and friends call the
// hub's admin API with an admin token (GW_ADMIN_TOKEN), and a refusal or a failure becomes
// one clear line, as a local state error would.
import { CliExit, type CliContext } from './cli-context.js';
import { AdminCredentialStore } from '../login/admin-credentials.js';
import { systemKeychain } from '../login/keychain.js';
import { shellCommand } from '../shell-quote.js';
import { isPlainObject } from '../is-plain-object.js';

export function adminCredentials(context: CliContext, home?: string): AdminCredentialStore {
  return new AdminCredentialStore(context.home(home), systemKeychain());
}

export interface RemoteHub {
  url: string;
  token: string;
}

/**
 * The hub to call when --hub is given, with GW_ADMIN_TOKEN or the admin token `gw login --admin`
 * stored for that hub; with neither it is a usage error, before anything is sent.
 */
export async function remoteHub(flag: string | undefined, context: CliContext, home?: string): Promise<RemoteHub | null> {
  if (flag === undefined) return null;
  if (!/^https?:\/\//i.test(flag)) throw new CliExit(2, `--hub takes the hub's URL (https://…); got ${flag}`);
  const url = new URL(flag);
  const hub = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  const token = context.env.GW_ADMIN_TOKEN?.trim() || await adminCredentials(context, home).tokenFor(hub);
  if (!token) throw new CliExit(2, `remote administration needs an admin token: ${shellCommand(['gw', 'login', '--admin', '--hub', hub])} (or set GW_ADMIN_TOKEN); make one on the hub with gw admin tokens create --name YOU`);
  return { url: hub, token };
}

export async function callHub<T = unknown>(hub: RemoteHub, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${hub.url}${path}`, {
      method, headers: { authorization: `Bearer ${hub.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause : error).message : String(error);
    throw new CliExit(1, `cannot reach the hub at ${hub.url}: ${reason}`);
  }
  const text = await response.text();
  let json: unknown = null;
  try { json = JSON.parse(text); } catch { /* not JSON: reported below */ }
  if (!response.ok) {
    const refusal = isPlainObject(json) && isPlainObject(json.error) && typeof json.error.message === 'string' ? json.error.message : undefined;
    const message = refusal ?? `HTTP ${response.status}`;
    throw new CliExit(response.status === 401 ? 2 : 1, `the hub refused: ${message}`);
  }
  return json as T;
}
