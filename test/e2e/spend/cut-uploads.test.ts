// Budgets hold multipart calls a client cuts (issue 26): a transcription's model is read from its
// form as gw streams it through, so the call holds next to nothing up front and is settled to its
// cost afterwards; a client that hangs up once the provider has the upload (and is working on
// it) used to settle at $0. On a real `gw serve` with a provider on loopback that takes the
// whole upload and answers nothing until the caller leaves, and whisper-1 priced per audio
// minute with `gw prices set`: each cut upload is charged at least the audio it sent (flagged as
// estimated), and a hard budget refuses the calls once spent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { readAudit, sleep, waitUntil, type AuditLine } from '../helpers.js';

const UPSTREAM_KEY = 'sk-proj-upload-billing-0001';
const USD_PER_MINUTE = 6;
const BUDGET_USD = 5;
/** One second of 24 kHz mono pcm16 in a WAV file. */
const AUDIO_SECONDS = 1;
const WAV = Buffer.concat([Buffer.from('RIFF....WAVEfmt '), Buffer.alloc(28), Buffer.alloc(48_000 * AUDIO_SECONDS, 3)]);

let gw: GatewayProcess | undefined;
let server: http.Server | undefined;
afterEach(async () => {
  await gw?.stop('SIGTERM');
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  gw = undefined;
  server = undefined;
});

/** Reads every upload whole, then answers nothing until the caller goes away. */
async function startHoldingProvider(): Promise<{ url: string; uploads: number[] }> {
  const uploads: number[] = [];
  server = http.createServer((request) => {
    let bytes = 0;
    request.on('data', (chunk: Buffer) => { bytes += chunk.length; });
    request.on('end', () => uploads.push(bytes));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, uploads };
}

async function cutUpload(gateway: GatewayProcess, uploads: number[]): Promise<number> {
  const before = uploads.length;
  const form = new FormData();
  form.append('model', 'whisper-1');
  form.append('file', new Blob([WAV], { type: 'audio/wav' }), 'hello.wav');
  const controller = new AbortController();
  const pending = fetch(`${gateway.url}/v1/audio/transcriptions`, { method: 'POST', body: form, signal: controller.signal, headers: { authorization: `Bearer ${gateway.bootstrapKey}` } })
    .then((response) => response.status, () => 499);
  const answered = await Promise.race([waitUntil(() => uploads.length > before, { timeoutMs: 20_000, what: 'the upload' }).then(() => null), pending]);
  if (answered !== null) return answered;
  await sleep(100);
  controller.abort();
  return pending;
}

async function requestRecords(home: string): Promise<AuditLine[]> {
  return (await readAudit(home).catch(() => [])).filter((line) => line.kind === 'request');
}

type Cost = { nano_usd?: number; estimated?: boolean };

it('cut transcription uploads are charged at least the audio they sent, and a hard budget refuses them once spent', async () => {
  const provider = await startHoldingProvider();
  const home = await makeHome('gw-cut-upload-');
  for (const args of [['prices', 'set', 'openai/whisper-1', '--per-audio-minute', String(USD_PER_MINUTE)], ['budgets', 'set', 'team:local', '--amount', String(BUDGET_USD), '--period', 'day']]) {
    const result = await runGw(args, { home });
    expect(result.code, result.stderr).toBe(0);
  }
  gw = await startGatewayProcess({ home, env: { OPENAI_API_KEY: UPSTREAM_KEY, OPENAI_BASE_URL: `${provider.url}/v1`, GW_LOG_LEVEL: 'warn' } });
  // What the provider bills for the audio it was sent.
  const bill = AUDIO_SECONDS * (USD_PER_MINUTE / 60) * 1e9;
  const bound = Math.floor((BUDGET_USD * 1e9) / bill) + 1;
  let admitted = 0;
  let refused = 0;
  for (let index = 0; index <= bound && refused === 0; index += 1) {
    const status = await cutUpload(gw, provider.uploads);
    if (status === 402) {
      refused = status;
      break;
    }
    admitted += 1;
    await waitUntil(async () => (await requestRecords(home)).length >= admitted, { timeoutMs: 20_000, what: `record ${admitted}` });
    const record = (await requestRecords(home))[admitted - 1]!;
    expect(record.outcome, JSON.stringify(record)).toContain('client_disconnected');
    expect((record.cost as Cost | undefined)?.nano_usd ?? 0, JSON.stringify(record)).toBeGreaterThanOrEqual(bill);
    expect((record.cost as Cost).estimated).toBe(true);
  }
  expect(refused, `no refusal after ${admitted} cut uploads (bound ${bound})`).toBe(402);
  expect(admitted).toBeGreaterThan(0);
  expect(admitted).toBeLessThanOrEqual(bound);
  expect(provider.uploads).toHaveLength(admitted);
}, 180_000);
