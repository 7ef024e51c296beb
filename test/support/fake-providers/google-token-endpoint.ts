// Google's OAuth token endpoint on loopback, for a service-account key made in the test.
// google-auth-library posts the signed JWT grant to https://oauth2.googleapis.com/token, a URL it
// hard-codes (gtoken/getToken.js ignores the key file's token_uri), so a gw child is given
// HTTPS_PROXY=<this proxy> and NODE_EXTRA_CA_CERTS=<this test CA>: gaxios tunnels through the
// proxy with CONNECT, and the proxy answers oauth2.googleapis.com itself, TLS terminated with a
// certificate the test CA signed. Any other CONNECT is refused and recorded: nothing reaches the
// internet. The endpoint checks the JWT's RS256 signature with the key's public half and its claims
// (iss, aud, scope cloud-platform, exp), as https://developers.google.com/identity/protocols/oauth2/service-account#httprest
// describes, and mints opaque tokens whose lifetime the test sets.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, verify, type KeyObject, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const GOOGLE_TOKEN_HOST = 'oauth2.googleapis.com';
const TOKEN_URL = `https://${GOOGLE_TOKEN_HOST}/token`;
const CLOUD_PLATFORM = 'https://www.googleapis.com/auth/cloud-platform';

interface MintedToken { token: string; expiresAt: number }

export interface GoogleTokenEndpoint {
  /** For the gw child: HTTPS_PROXY and NODE_EXTRA_CA_CERTS. */
  env: Record<string, string>;
  /** A service-account key JSON file in the OS temp folder. */
  keyFile: string;
  clientEmail: string;
  minted: MintedToken[];
  /** Token requests refused (bad signature, claims, or a planned refusal), with the reason. */
  refused: string[];
  /** CONNECTs to any other host: must stay empty. */
  otherHosts: string[];
  /** Lifetime of the next tokens, in seconds (default 3600). */
  expiresInSeconds: number;
  /** Refuse the next `count` token requests with invalid_grant. */
  refuseNext(count: number): void;
  isValid(token: string): boolean;
  close(): Promise<void>;
}

function makeCertificates(folder: string): { caFile: string; key: Buffer; cert: Buffer } {
  const file = (name: string): string => path.join(folder, name);
  const run = (args: string[]): void => { execFileSync('openssl', args, { stdio: 'ignore' }); };
  // EC keys: made in milliseconds where RSA takes a loaded machine seconds.
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'];
  run(['req', '-x509', ...ec, '-nodes', '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '1', '-subj', '/CN=gw test CA']);
  run(['req', ...ec, '-nodes', '-keyout', file('host.key'), '-out', file('host.csr'), '-subj', `/CN=${GOOGLE_TOKEN_HOST}`]);
  writeFileSync(file('host.ext'), `subjectAltName=DNS:${GOOGLE_TOKEN_HOST}\n`);
  run(['x509', '-req', '-in', file('host.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('host.pem'), '-days', '1', '-extfile', file('host.ext')]);
  return { caFile: file('ca.pem'), key: readFileSync(file('host.key')), cert: readFileSync(file('host.pem')) };
}

function writeServiceAccountKey(folder: string): { keyFile: string; clientEmail: string; publicKey: KeyObject } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientEmail = 'gw-test@gw-test-project.iam.gserviceaccount.com';
  const keyFile = path.join(folder, 'service-account.json');
  writeFileSync(keyFile, JSON.stringify({
    type: 'service_account', project_id: 'gw-test-project', private_key_id: 'test-key-1',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }), client_email: clientEmail, client_id: '1',
    token_uri: TOKEN_URL,
  }));
  return { keyFile, clientEmail, publicKey: createPublicKey(privateKey) };
}

/** Why the JWT grant is refused, or null when its signature and claims hold. */
function checkAssertion(assertion: string, publicKey: KeyObject, clientEmail: string): string | null {
  const [header, payload, signature] = assertion.split('.');
  if (header === undefined || payload === undefined || signature === undefined) return 'not a JWT';
  if (!verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))) return 'bad signature';
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (claims.iss !== clientEmail) return 'iss';
  if (claims.aud !== TOKEN_URL) return 'aud';
  if (!String(claims.scope).split(' ').includes(CLOUD_PLATFORM)) return 'scope';
  if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) return 'exp';
  return null;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startGoogleTokenEndpoint(): Promise<GoogleTokenEndpoint> {
  const folder = mkdtempSync(path.join(tmpdir(), 'gw-google-token-'));
  const certificates = makeCertificates(folder);
  const account = writeServiceAccountKey(folder);
  let refusals = 0;
  const endpoint: GoogleTokenEndpoint = {
    env: {}, keyFile: account.keyFile, clientEmail: account.clientEmail, minted: [], refused: [], otherHosts: [], expiresInSeconds: 3600,
    refuseNext: (count) => { refusals = count; },
    isValid: (token) => endpoint.minted.some((minted) => minted.token === token && minted.expiresAt > Date.now()),
    close: async () => {},
  };
  const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const form = await readForm(request);
    const problem = request.method !== 'POST' || request.url !== '/token' ? 'not POST /token'
      : form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' ? 'grant_type'
        : refusals > 0 ? 'refused by the test' : checkAssertion(form.get('assertion') ?? '', account.publicKey, account.clientEmail);
    response.setHeader('content-type', 'application/json');
    if (problem !== null) {
      refusals = Math.max(0, refusals - 1);
      endpoint.refused.push(problem);
      response.writeHead(400).end(JSON.stringify({ error: 'invalid_grant', error_description: `Invalid JWT: ${problem}` }));
      return;
    }
    const minted = { token: `ya29.test-${endpoint.minted.length + 1}-${Math.random().toString(36).slice(2)}`, expiresAt: Date.now() + endpoint.expiresInSeconds * 1000 };
    endpoint.minted.push(minted);
    response.writeHead(200).end(JSON.stringify({ access_token: minted.token, expires_in: endpoint.expiresInSeconds, token_type: 'Bearer' }));
  };
  const tokenServer = createHttpsServer({ key: certificates.key, cert: certificates.cert }, (request, response) => { void answer(request, response); });
  const proxy = createHttpServer((_request, response) => response.writeHead(405).end());
  proxy.on('connect', (request: IncomingMessage, socket) => {
    if (request.url !== `${GOOGLE_TOKEN_HOST}:443`) {
      endpoint.otherHosts.push(String(request.url));
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    tokenServer.emit('connection', socket);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  endpoint.env = { HTTPS_PROXY: `http://127.0.0.1:${port}`, NODE_EXTRA_CA_CERTS: certificates.caFile, NO_PROXY: '127.0.0.1,localhost' };
  endpoint.close = () => new Promise<void>((resolve) => {
    proxy.closeAllConnections();
    tokenServer.closeAllConnections();
    proxy.close(() => resolve());
  });
  return endpoint;
}
