// A browser without the rendering, for OpenID Connect sign-ins against a real oidc-provider:
// one cookie jar (per origin, as a browser keeps them), manual redirects, and the issuer's
// dev-interaction forms (login, then consent) filled in. It stops at the hub's callback URL
// and hands it back unopened, so a test decides who opens it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export class Jar {
  private readonly cookies = new Map<string, Map<string, string>>();
  /** The raw Set-Cookie lines each answer carried, in order (to check their attributes). */
  readonly setCookies: string[] = [];

  header(url: string): string {
    return [...(this.cookies.get(new URL(url).origin) ?? new Map<string, string>())].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  take(url: string, response: Response): void {
    const origin = new URL(url).origin;
    const kept = this.cookies.get(origin) ?? new Map<string, string>();
    this.cookies.set(origin, kept);
    for (const line of response.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair = ''] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      if (/max-age=0\b/i.test(line) || value === '') kept.delete(name); else kept.set(name, value);
    }
  }

  has(url: string, name: string): boolean {
    return this.cookies.get(new URL(url).origin)?.has(name) ?? false;
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = this.header(url);
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string> | undefined), ...(cookie ? { cookie } : {}) } });
    this.take(url, response);
    return response;
  }
}

function postForm(jar: Jar, url: string, fields: Record<string, string>): Promise<Response> {
  return jar.fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
}

/** The first form of a page: its absolute action and its hidden fields. */
function readForm(html: string, pageUrl: string): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error(`no form on ${pageUrl}: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input[^>]*type="hidden"[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
    if (name) fields[name] = value.replace(/&amp;/g, '&');
  }
  return { action: new URL(form[1]!.replace(/&amp;/g, '&'), pageUrl).toString(), fields };
}

/**
 * From the issuer's authorization URL to the hub's callback URL: signs in as `login` (any
 * password) and consents. Returns the callback URL (with code and state), not opened.
 */
export async function signInAtIssuer(jar: Jar, authorizationUrl: string, callbackPrefix: string, login: string): Promise<string> {
  let url = authorizationUrl;
  let response = await jar.fetch(url);
  for (let step = 0; step < 12; step += 1) {
    const location = response.headers.get('location');
    if (location !== null) {
      const next = new URL(location, url).toString();
      if (next.startsWith(callbackPrefix)) return next;
      url = next;
      response = await jar.fetch(url);
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`the issuer answered ${response.status} at ${url}: ${html.slice(0, 300)}`);
    const form = readForm(html, url);
    const fields = form.fields.prompt === 'login' ? { ...form.fields, login, password: 'any password' } : form.fields;
    url = form.action;
    response = await postForm(jar, url, fields);
  }
  throw new Error('the sign-in at the issuer did not come back to the hub');
}

export interface Issuer {
  url: string;
  close(): Promise<void>;
}

/**
 * A real oidc-provider whose accounts are named `<verified>:<email>[:<group>+<group>…]`: `true:ops@x`
 * sends email_verified true, `false:…` the string "false", `missing:…` no email_verified at all;
 * the groups, when named, in a `groups` claim.
 */
export async function startIssuer(clientSecret: string, redirectUris: string[]): Promise<Issuer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(url, {
    clients: [{ client_id: 'gw-hub', client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
    findAccount: async (_context, id) => ({ accountId: id, claims: async () => claimsOf(id) }),
    claims: { openid: ['sub', 'groups'], email: ['email', 'email_verified'] },
    cookies: { keys: ['gw-oidc-proof-cookie-key'] },
    features: { devInteractions: { enabled: true } },
  });
  server.on('request', provider.callback());
  return { url, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

function claimsOf(id: string): { sub: string; [claim: string]: unknown } {
  const [verified, email, groups] = id.split(':');
  const claims: { sub: string; [claim: string]: unknown } = { sub: id, email };
  if (groups) claims.groups = groups.split('+');
  if (verified === 'true') claims.email_verified = true;
  if (verified === 'false') claims.email_verified = 'false';
  return claims;
}
