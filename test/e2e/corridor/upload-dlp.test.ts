// DLP on bodies gw streams through instead of holding: a multipart upload's text part is
// read as it passes and cut before the secret leaves whole; a part DLP cannot read is
// recorded as unscanned, or refused with unscanned_uploads=refuse; a text body too large
// to hold (over 8 MiB) is read the same way. Before the corridor these went out unscanned.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { SAMPLES } from '../../dlp/samples.js';
import { auditRecord } from '../forwarding/support.js';
import { sleep, waitForState } from '../helpers.js';
import { startCatchAllProvider, type CatchAllProvider } from './catch-all-provider.js';

const SECRET = SAMPLES.githubPat;
let gw: GatewayProcess;
let openai: CatchAllProvider;

beforeAll(async () => {
  openai = await startCatchAllProvider(SECRET);
  gw = await startGatewayProcess({ env: { OPENAI_API_KEY: 'sk-up', OPENAI_BASE_URL: `${openai.url}/v1`, GW_LOG_LEVEL: 'warn' } });
});

afterAll(async () => {
  await gw?.stop();
  await openai?.close();
});

function upload(parts: Array<{ content: Buffer | string; type: string; name: string }>): Promise<Response> {
  const form = new FormData();
  form.append('purpose', 'batch');
  for (const part of parts) form.append('file', new Blob([part.content], { type: part.type }), part.name);
  return fetch(`${gw.url}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${gw.bootstrapKey}` }, body: form });
}

const line = (text: string) => `{"custom_id":"x","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4o","messages":[{"role":"user","content":"${text}"}]}}\n`;

it('a JSONL upload with a secret deep inside is cut before the secret leaves, and refused with 403', async () => {
  const content = line('filler '.repeat(40)).repeat(2_000) + line(`key ${SECRET}`) + line('after').repeat(100);
  const before = openai.requests.length;
  const response = await upload([{ content, type: 'application/jsonl', name: 'batch.jsonl' }]);
  expect(response.status).toBe(403);
  const body = await response.text();
  expect(body).toContain('github_token');
  expect(body).not.toContain(SECRET);
  await sleep(300);
  expect(openai.everything()).not.toContain(SECRET);
  // Whatever reached the provider is a cut request, never the whole upload.
  for (const seen of openai.requests.slice(before)) expect(seen.body.length).toBeLessThan(Buffer.byteLength(content));
  const record = await auditRecord(gw.home, response.headers.get('x-request-id')!);
  expect(record).toMatchObject({ status: 403, dlp: { github_token: 1 } });
});

it('a clean JSONL upload goes through whole', async () => {
  const content = line('hello').repeat(500);
  const response = await upload([{ content, type: 'application/jsonl', name: 'batch.jsonl' }]);
  expect(response.status).toBe(200);
  expect(openai.requests.at(-1)!.body.includes(Buffer.from(content))).toBe(true);
});

it('a part DLP cannot read is served and recorded as unscanned', async () => {
  const response = await upload([{ content: Buffer.from([0xff, 0xfb, 0x90, 0x00, 1, 2, 3]), type: 'audio/mpeg', name: 'speech.mp3' }]);
  expect(response.status).toBe(200);
  const record = await auditRecord(gw.home, response.headers.get('x-request-id')!);
  expect(record.data).toMatchObject({ unscanned: ['file: audio/mpeg'] });
});

it('with unscanned_uploads=refuse, such a part is refused before it leaves', async () => {
  const set = await runGw(['settings', 'set', 'unscanned_uploads', 'refuse'], { home: gw.home });
  expect(set.code, set.stderr).toBe(0);
  await waitForState(gw);
  const audio = Buffer.alloc(256 * 1024, 7);
  const before = openai.requests.length;
  const response = await upload([{ content: audio, type: 'audio/mpeg', name: 'speech.mp3' }]);
  expect(response.status).toBe(403);
  expect(await response.text()).toContain('unscanned_uploads');
  await sleep(300);
  for (const seen of openai.requests.slice(before)) expect(seen.body.length).toBeLessThan(audio.length);
  const reset = await runGw(['settings', 'set', 'unscanned_uploads', 'record'], { home: gw.home });
  expect(reset.code).toBe(0);
  await waitForState(gw);
});

it('a text body too large to hold (over 8 MiB) on a passthrough is scanned as it streams', async () => {
  const content = Buffer.from(`${'x'.repeat(9 * 1024 * 1024)} and then ${SECRET} at the end`);
  // node:http, not fetch: gw answers before the body is all sent, and fetch reports the cut upload instead of the answer.
  const { request } = await import('node:http');
  const url = new URL(`${gw.url}/openai_passthrough/v1/files`);
  const status = await new Promise<number>((resolve, reject) => {
    const outgoing = request({
      host: url.hostname, port: url.port, path: url.pathname, method: 'POST',
      headers: { authorization: `Bearer ${gw.bootstrapKey}`, 'content-type': 'text/plain', 'content-length': String(content.length) },
    }, (response) => { resolve(response.statusCode ?? 0); response.resume(); });
    outgoing.on('error', (error) => (/EPIPE|ECONNRESET/.test(String(error)) ? undefined : reject(error)));
    outgoing.end(content);
  });
  expect(status).toBe(403);
  await sleep(300);
  expect(openai.everything()).not.toContain(SECRET);
});
