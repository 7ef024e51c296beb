// Everything that leaves is scanned, and nothing DLP matched is kept (issue 26). A secret is
// planted in every place a client can put one (a body value, a body key, a top-level JSON
// string, the model, a GenAI path's model, a query name and value, the URL path, each
// header gw forwards, the User-Agent) against a real `gw serve` whose providers are
// loopback servers recording every byte they receive: each call is refused with 403 in the
// caller's shape, naming the rule, and nothing reaches a provider. Then everything gw
// wrote is searched for the secrets: its log in JSON and in the pretty format, every file
// under its home (the audit trail), the admin API's request list and each record's detail,
// `gw usage --by model`, and the OpenTelemetry spans a loopback collector received.
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { FORWARDED_REQUEST_HEADERS } from '../../../src/pipeline/govern/header-rules.js';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { SAMPLES } from '../../dlp/samples.js';
import { listFiles, readAudit, sleep, waitUntil } from '../helpers.js';
import { startCatchAllProvider, type CatchAllProvider } from './catch-all-provider.js';

const PAT = SAMPLES.githubPat;
const AWS = SAMPLES.awsKeyId;
/** What must never be found anywhere; the PEM's body line stands for the key (its header is a common string). */
const SECRETS = { github_token: PAT, aws_access_key: AWS, private_key: SAMPLES.privateKey.split('\n')[2]! };
const GPT = 'openai/gpt-4o';
/** Personal data under the default `log` rule: it may reach the provider, never gw's own records. */
const EMAIL = SAMPLES.email;

interface Probe {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** A JSON value, sent as application/json. */
  json?: unknown;
  rule: keyof typeof SECRETS;
  /** Where the audit record says the finding was. */
  place: string;
  /** The dialect's error shape: `openai` `{error:{code}}`, `anthropic` `{type:'error'}`, `google` `{error:{status}}`. */
  shape?: 'openai' | 'anthropic' | 'google';
}

const hello = (model = GPT) => ({ model, messages: [{ role: 'user', content: 'hello' }] });
const padding = ' plain words follow'.repeat(6);

/** The forwarded headers, each carrying the secret (the User-Agent too, and one of each forwarded prefix: anthropic-*, x-stainless-*). */
const HEADER_PROBES: Record<string, Probe> = Object.fromEntries([...FORWARDED_REQUEST_HEADERS, 'user-agent', 'anthropic-version', 'anthropic-beta', 'x-stainless-lang'].map((name) => {
  const value = name === 'content-type' ? `application/json; note=${PAT}` : name === 'accept' ? `application/json, x/${PAT}` : `v ${PAT}`;
  return [`header ${name}`, { method: 'POST', path: '/v1/chat/completions', headers: { [name]: value }, json: hello(), rule: 'github_token', place: `header:${name}` }];
}));

const PROBES: Record<string, Probe> = {
  'a body value': { method: 'POST', path: '/v1/chat/completions', json: { model: GPT, messages: [{ role: 'user', content: `my key ${PAT}` }] }, rule: 'github_token', place: 'body' },
  'a body key': { method: 'POST', path: '/v1/chat/completions', json: { ...hello(), metadata: { [PAT]: 'x' } }, rule: 'github_token', place: 'body' },
  'a body key, Anthropic': { method: 'POST', path: '/v1/messages', json: { ...hello('anthropic/claude-sonnet-4-5'), max_tokens: 8, tools: [{ name: 't', input_schema: { type: 'object', properties: { [`x${PAT}`]: { type: 'string' } } } }] }, rule: 'github_token', place: 'body', shape: 'anthropic' },
  'a top-level JSON string': { method: 'POST', path: '/openai_passthrough/v1/chat/completions', json: `key ${AWS} here`, rule: 'aws_access_key', place: 'body' },
  'the model': { method: 'POST', path: '/v1/chat/completions', json: hello(`fake/${PAT}`), rule: 'github_token', place: 'model' },
  'the model, Anthropic': { method: 'POST', path: '/v1/messages', json: { ...hello(`fake/${PAT}`), max_tokens: 8 }, rule: 'github_token', place: 'model', shape: 'anthropic' },
  'a GenAI path model': { method: 'POST', path: `/v1beta/models/fake/${PAT}:generateContent`, json: { contents: [{ role: 'user', parts: [{ text: 'hello' }] }] }, rule: 'github_token', place: 'model', shape: 'google' },
  'a query value': { method: 'POST', path: `/v1/chat/completions?k=${AWS}`, json: hello(), rule: 'aws_access_key', place: 'query' },
  'a query name': { method: 'POST', path: `/v1/chat/completions?${AWS}=1`, json: hello(), rule: 'aws_access_key', place: 'query' },
  'a percent-encoded query name': { method: 'POST', path: `/v1/chat/completions?${encodeURIComponent(AWS).replace('A', '%41')}=1`, json: hello(), rule: 'aws_access_key', place: 'query' },
  'a resource id in the path': { method: 'GET', path: `/v1/files/${PAT}`, rule: 'github_token', place: 'path' },
  'a passthrough path, percent-encoded': { method: 'GET', path: `/openai_passthrough/v1/files/%67${PAT.slice(1)}`, rule: 'github_token', place: 'path' },
  'a data: URL holding plain text': {
    method: 'POST', path: '/v1/chat/completions', rule: 'github_token', place: 'body',
    json: { model: GPT, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,my key ${PAT}${padding}` } }] }] },
  },
  'input_audio.data holding plain text': {
    method: 'POST', path: '/v1/chat/completions', rule: 'aws_access_key', place: 'body',
    json: { model: GPT, messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: `key ${AWS}${padding}`, format: 'wav' } }] }] },
  },
  'a .env file sent as base64 text': {
    method: 'POST', path: '/v1/chat/completions', rule: 'github_token', place: 'body',
    json: { model: GPT, messages: [{ role: 'user', content: [{ type: 'file', file: { filename: '.env', file_data: `data:text/plain;base64,${Buffer.from(`TOKEN=${PAT}\n${padding}`).toString('base64')}` } }] }] },
  },
  'an AWS key id followed by a letter': { method: 'POST', path: '/v1/chat/completions', json: { model: GPT, messages: [{ role: 'user', content: `${AWS}and more` }] }, rule: 'aws_access_key', place: 'body' },
  'a lower-case PEM header': { method: 'POST', path: '/v1/chat/completions', json: { model: GPT, messages: [{ role: 'user', content: SAMPLES.privateKey.replace('-----BEGIN RSA PRIVATE KEY-----', '-----begin rsa private key-----').split('-----END')[0] }] }, rule: 'private_key', place: 'body' },
  ...HEADER_PROBES,
};

interface Rig {
  gw: GatewayProcess;
  provider: CatchAllProvider;
  adminToken: string;
  key: string;
  /** Request id of each probe, by probe name. */
  ids: Record<string, string>;
  /** The call whose model carried an email (a log rule). */
  loggedModelId?: string;
}

let collector: Server;
let collectorUrl = '';
const spanBodies: string[] = [];
const rigs = {} as Record<'json' | 'pretty', Rig>;

async function startRig(format: 'json' | 'pretty'): Promise<Rig> {
  const provider = await startCatchAllProvider('a plain answer');
  const gw = await startGatewayProcess({
    args: ['--log-format', format],
    env: {
      OPENAI_API_KEY: 'sk-upstream-openai', OPENAI_BASE_URL: `${provider.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: provider.url,
      GEMINI_API_KEY: 'upstream-gemini', GOOGLE_GEMINI_BASE_URL: provider.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_BSP_SCHEDULE_DELAY: '100', GW_LOG_LEVEL: 'info',
    },
  });
  const created = await runGw(['admin', 'tokens', 'create', '--name', 'ops@example.com'], { home: gw.home });
  expect(created.code, created.stderr).toBe(0);
  const adminToken = created.stdout.trim();
  await waitUntil(async () => (await fetch(`${gw.url}/admin/api/whoami`, { headers: { authorization: `Bearer ${adminToken}` } })).status === 200, { timeoutMs: 15_000, what: 'the admin token' });
  return { gw, provider, adminToken, key: gw.bootstrapKey!, ids: {} };
}

async function send(rig: Rig, probe: Probe, credential: string | null = rig.key): Promise<{ status: number; text: string; id: string }> {
  const headers: Record<string, string> = { ...(credential ? { authorization: `Bearer ${credential}`, 'x-api-key': credential, 'x-goog-api-key': credential } : {}) };
  if (probe.json !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, probe.headers);
  const response = await fetch(`${rig.gw.url}${probe.path}`, { method: probe.method, headers, body: probe.json === undefined ? undefined : JSON.stringify(probe.json) });
  return { status: response.status, text: await response.text(), id: response.headers.get('x-request-id') ?? '' };
}

beforeAll(async () => {
  collector = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => {
      spanBodies.push(body);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const address = collector.address();
  collectorUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  [rigs.json, rigs.pretty] = await Promise.all([startRig('json'), startRig('pretty')]);
}, 90_000);

afterAll(async () => {
  for (const rig of Object.values(rigs)) {
    await rig.gw.stop();
    await rig.provider.close();
  }
  await new Promise((resolve) => collector?.close(resolve));
});

describe.each(['json', 'pretty'] as const)('log format %s', (format) => {
  it('the rig works: a clean call reaches the provider and is answered', async () => {
    const rig = rigs[format];
    const sent = await send(rig, { method: 'POST', path: '/v1/chat/completions?limit=1', json: hello(), headers: { 'user-agent': 'probe/1.0', 'openai-organization': 'org-plain' }, rule: 'github_token', place: 'body' });
    expect(sent.status, sent.text).toBe(200);
    expect(rig.provider.requests).toHaveLength(1);
    expect(rig.provider.requests[0]!.headers['openai-organization']).toBe('org-plain');
    rig.provider.requests.length = 0;
  });

  it.each(Object.entries(PROBES))('%s: refused with 403 naming the rule, nothing reaches the provider', async (name, probe) => {
    const rig = rigs[format];
    const before = rig.provider.requests.length;
    const sent = await send(rig, probe);
    rig.ids[name] = sent.id;
    expect(rig.provider.requests.slice(before).map((seen) => `${seen.method} ${seen.path}`)).toEqual([]);
    expect(sent.status, sent.text).toBe(403);
    expect(sent.text).toContain(probe.rule);
    const error = JSON.parse(sent.text) as Record<string, unknown>;
    if (probe.shape === 'anthropic') expect(error.type).toBe('error');
    else if (probe.shape === 'google') expect((error.error as Record<string, unknown>).status).toBe('PERMISSION_DENIED');
    else expect((error.error as Record<string, unknown>).code).toBe('dlp_blocked');
    for (const secret of Object.values(SECRETS)) expect(sent.text).not.toContain(secret);
  });

  it('a log rule\'s match in the model: the call goes on (the admin chose log), the model is recorded masked', async () => {
    const rig = rigs[format];
    const sent = await send(rig, { method: 'POST', path: '/v1/chat/completions', json: hello(`openai/gpt-4o-${EMAIL}`), rule: 'github_token', place: 'model' });
    expect(sent.status, sent.text).toBe(200);
    rig.loggedModelId = sent.id;
  });

  it.each([
    ['the model', `fake/${PAT}`, {}],
    ['the User-Agent', 'openai/gpt-realtime', { 'user-agent': `agent ${PAT}` }],
  ])('realtime: a secret in the handshake (%s) is refused before any provider', async (_name, model, headers) => {
    const rig = rigs[format];
    const before = rig.provider.requests.length;
    const refused = await new Promise<{ status: number; id: string; text: string }>((resolve, reject) => {
      const client = new WebSocket(`${rig.gw.url.replace('http', 'ws')}/v1/realtime?model=${encodeURIComponent(model)}`, { headers: { authorization: `Bearer ${rig.key}`, ...headers } });
      client.once('open', () => { client.close(); reject(new Error('unexpectedly upgraded')); });
      client.once('unexpected-response', (_request, response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => { text += chunk.toString(); });
        response.once('end', () => resolve({ status: response.statusCode ?? 0, id: String(response.headers['x-request-id'] ?? ''), text }));
      });
      client.once('error', () => undefined);
    });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.text).toContain('github_token');
    expect(refused.text).not.toContain(PAT);
    expect(rig.provider.requests.length).toBe(before);
    if (refused.id) rig.ids[`realtime ${_name}`] = refused.id;
  });

  it('a call refused at the door (no credential) with a secret in its GenAI path and query name', async () => {
    const rig = rigs[format];
    const before = rig.provider.requests.length;
    const sent = await send(rig, { method: 'POST', path: `/v1beta/models/fake/${PAT}:generateContent?${AWS}=1`, json: {}, rule: 'github_token', place: 'path' }, null);
    expect(sent.status).toBe(401);
    expect(rig.provider.requests.length).toBe(before);
  });
});

describe('nothing gw wrote carries a secret DLP matched', () => {
  const WRITTEN = { ...SECRETS, email: EMAIL };
  const findIn = (where: string, text: string, secrets: Record<string, string> = WRITTEN) => Object.entries(secrets).filter(([, secret]) => text.includes(secret)).map(([rule]) => `${where}: ${rule}`);

  it('the audit records keep each finding (rule and place), not the value, and the model masked', async () => {
    for (const rig of Object.values(rigs)) {
      const records = await waitForRecords(rig);
      for (const [name, probe] of Object.entries(PROBES)) {
        const record = records.find((candidate) => candidate.request_id === rig.ids[name]);
        expect(record, name).toBeDefined();
        expect((record!.data as { dlp_findings?: unknown })?.dlp_findings, name).toContainEqual({ rule: probe.rule, place: probe.place });
        expect(record!.outcome, name).toContain('GW_ERR_DLP_BLOCKED');
      }
      const modelRecord = records.find((candidate) => candidate.request_id === rig.ids['the model'])!;
      expect(modelRecord.model).toBe('fake/[REDACTED:github_token]');
    }
  });

  it('admin API (request list and every detail), gw usage --by model, every file under the home, the spans, the log in both formats', async () => {
    const found: string[] = [];
    for (const [format, rig] of Object.entries(rigs)) {
      const admin = { authorization: `Bearer ${rig.adminToken}` };
      const list = await (await fetch(`${rig.gw.url}/admin/api/requests?limit=500`, { headers: admin })).text();
      expect(list).toContain(rig.ids['the model']);
      found.push(...findIn(`${format} admin list`, list));
      for (const id of Object.values(rig.ids)) {
        const detail = await fetch(`${rig.gw.url}/admin/api/requests/${id}`, { headers: admin });
        expect(detail.status).toBe(200);
        found.push(...findIn(`${format} admin detail ${id}`, await detail.text()));
      }
      for (const args of [['usage', '--by', 'model'], ['usage', '--by', 'model', '--json'], ['usage', '--by', 'model', '--csv']]) {
        const usage = await runGw(args, { home: rig.gw.home });
        expect(usage.code, usage.stderr).toBe(0);
        found.push(...findIn(`${format} gw ${args.join(' ')}`, usage.stdout + usage.stderr));
      }
      found.push(...findIn(`${format} provider`, rig.provider.everything(), SECRETS));
      const logged = await (await fetch(`${rig.gw.url}/admin/api/requests/${rig.loggedModelId}`, { headers: admin })).json() as { model?: string; data?: { dlp_findings?: unknown } };
      expect(logged.model).toBe('openai/[REDACTED:email]');
      expect(logged.data?.dlp_findings).toContainEqual({ rule: 'email', place: 'model' });
    }
    await waitUntil(() => Object.values(rigs).every((rig) => Object.values(rig.ids).every((id) => spanBodies.some((body) => body.includes(id)))), { timeoutMs: 15_000, what: 'a span for every probe' });
    found.push(...findIn('spans', spanBodies.join('\n')));
    // Stopped, so every buffered line and record is written.
    for (const [format, rig] of Object.entries(rigs)) {
      await rig.gw.stop();
      const log = rig.gw.stdout() + rig.gw.stderr();
      expect(log).toContain(format === 'json' ? '"msg":"request"' : ' POST /v1/chat/completions');
      found.push(...findIn(`${format} log`, log));
      for (const file of await listFiles(rig.gw.home)) found.push(...findIn(`${format} ${file}`, await readFile(file, 'latin1')));
    }
    expect(found).toEqual([]);
  });
});

async function waitForRecords(rig: Rig): Promise<Array<Record<string, unknown>>> {
  const ids = Object.values(rig.ids);
  let records: Array<Record<string, unknown>> = [];
  await waitUntil(async () => {
    records = await readAudit(rig.gw.home).catch(() => []);
    return ids.every((id) => records.some((record) => record.request_id === id));
  }, { timeoutMs: 15_000, what: 'the audit records' });
  await sleep(0);
  return records;
}
