// Vertex AI with workload identity federation instead of a service-account key: the credentials
// file is an `external_account` one, whose token_url google-auth-library honours, so a local STS
// endpoint (https://cloud.google.com/iam/docs/reference/sts/rest/v1/TopLevel/token) exchanges the
// workload's own token (read from credential_source.file) for the access token Vertex is sent.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../../../support/gateway-process.js';
import { startFakeProvider, type FakeProvider } from '../../../support/fake-providers/index.js';

const SUBJECT_TOKEN = 'workload-oidc-token-1';
const AUDIENCE = '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/gw-pool/providers/gw-ci';
const exchanges: URLSearchParams[] = [];
const minted = new Set<string>();
let sts: Server;
let vertex: FakeProvider;
let gw: GatewayProcess;

function startSts(): Promise<string> {
  sts = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      exchanges.push(form);
      const good = request.url === '/v1/token' && form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:token-exchange'
        && form.get('subject_token') === SUBJECT_TOKEN && form.get('audience') === AUDIENCE;
      response.setHeader('content-type', 'application/json');
      if (!good) return void response.writeHead(400).end(JSON.stringify({ error: 'invalid_grant', error_description: 'bad exchange' }));
      const token = `ya29.sts-${minted.size + 1}`;
      minted.add(token);
      response.writeHead(200).end(JSON.stringify({ access_token: token, issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', token_type: 'Bearer', expires_in: 3600 }));
    });
  });
  return new Promise((resolve) => sts.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(sts.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  const stsUrl = await startSts();
  const folder = mkdtempSync(path.join(tmpdir(), 'gw-vertex-wif-'));
  writeFileSync(path.join(folder, 'subject-token'), SUBJECT_TOKEN);
  const credentials = path.join(folder, 'workload-credentials.json');
  writeFileSync(credentials, JSON.stringify({
    type: 'external_account', audience: AUDIENCE, subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
    token_url: `${stsUrl}/v1/token`, credential_source: { file: path.join(folder, 'subject-token') },
  }));
  vertex = await startFakeProvider('vertex', { eventDelayMs: 1, acceptsToken: (token) => minted.has(token) });
  gw = await startGatewayProcess({
    env: { GOOGLE_CLOUD_PROJECT: 'wif-project', CLOUD_ML_REGION: 'global', GOOGLE_APPLICATION_CREDENTIALS: credentials, GOOGLE_VERTEX_BASE_URL: vertex.url, GW_LOG_LEVEL: 'warn' },
  });
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await vertex?.close();
  await new Promise((resolve) => sts?.close(resolve));
});

it('a workload\'s own token is exchanged at the file\'s token_url for the access token Vertex is sent', async () => {
  const response = await fetch(`${gw.url}/v1/messages`, {
    method: 'POST', headers: { 'x-api-key': gw.bootstrapKey!, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'vertex/claude-haiku-4-5@20251001', max_tokens: 16, messages: [{ role: 'user', content: 'federated' }] }),
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject({ content: [{ type: 'text', text: 'echo: federated' }] });
  expect(exchanges).toHaveLength(1);
  expect(exchanges[0]!.get('scope')).toContain('https://www.googleapis.com/auth/cloud-platform');
  const sent = vertex.requests.at(-1)!;
  expect(sent.path).toBe('/v1/projects/wif-project/locations/global/publishers/anthropic/models/claude-haiku-4-5@20251001:rawPredict');
  expect(sent.headers.authorization).toBe('Bearer ya29.sts-1');
});
