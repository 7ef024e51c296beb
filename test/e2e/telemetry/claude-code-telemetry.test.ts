// Issue 39: Claude Code's telemetry lands. A hub whose own spans go to a local OTLP collector
// (OTEL_EXPORTER_OTLP_ENDPOINT) takes the OTLP batches a signed-in person posts to /v1/metrics,
// /v1/logs and /v1/traces, sent by real OpenTelemetry exporters as Claude Code's are (protobuf, gzip,
// JSON, and a chunked body), with the person's gateway access token. Each accepted batch reaches the
// collector unchanged; one carrying a planted secret is refused in OTLP's error shape and never
// relayed; each is a `telemetry` record under the person and the session (Claude Code's session.id),
// counts only, and counted in /metrics.
import { createServer, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES } from '../../dlp/samples.js';
import { readAudit, waitForState, waitUntil, type AuditLine } from '../helpers.js';
import { PERSON, runChecked, startHubRig, type HubRig } from '../device-login/support.js';

interface Received { path: string; contentType: string; body: Buffer }

const SECRET = SAMPLES.githubPat;
const SERVICE = 'claude-code-under-test';
let rig: HubRig;
let collector: Server;
const received: Received[] = [];
let accessToken = '';

beforeAll(async () => {
  collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => {
      received.push({ path: request.url ?? '', contentType: request.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const address = collector.address();
  const collectorUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  rig = await startHubRig({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_BSP_SCHEDULE_DELAY: '100' } });
  accessToken = await signIn();
}, 60_000);

afterAll(async () => {
  await rig?.close();
  await new Promise((resolve) => collector?.close(resolve));
});

/** Claude Code's /login: the empty device authorization form, an admin's approval, one poll. */
async function signIn(): Promise<string> {
  const started = await (await fetch(`${rig.hub.url}/oauth/device_authorization`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })).json() as Record<string, string>;
  await runChecked(['device', 'approve', String(started.user_code), '--person', PERSON], rig.hub.home);
  await waitForState(rig.hub);
  const token = await fetch(`${rig.hub.url}/oauth/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: String(started.device_code) }).toString(),
  });
  expect(token.status).toBe(200);
  return String((await token.json() as Record<string, unknown>).access_token);
}

const auth = () => ({ authorization: `Bearer ${accessToken}` });
const resource = () => resourceFromAttributes({ 'service.name': SERVICE });

async function telemetryRecords(count: number): Promise<AuditLine[]> {
  const records = async () => (await readAudit(rig.hub.home)).filter((record) => record.kind === 'telemetry');
  await waitUntil(async () => (await records()).length >= count, { timeoutMs: 5_000, what: `${count} telemetry records` });
  return records();
}

const atCollector = (path: string, text: string) => received.filter((batch) => batch.path === path && batch.body.includes(text));

describe('Claude Code\'s telemetry at the hub', () => {
  it('metrics in protobuf: accepted, relayed unchanged to the collector, recorded under the person and session', async () => {
    const provider = new MeterProvider({
      resource: resource(),
      readers: [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter({ url: `${rig.hub.url}/v1/metrics`, headers: auth() }), exportIntervalMillis: 60_000 })],
    });
    provider.getMeter('com.anthropic.claude_code').createCounter('claude_code.token.usage').add(42, { 'session.id': 'sess-metrics-1', type: 'input' });
    await provider.forceFlush();
    await provider.shutdown();
    await waitUntil(() => atCollector('/v1/metrics', 'claude_code.token.usage').length > 0, { what: 'the metrics batch at the collector' });
    expect(atCollector('/v1/metrics', 'claude_code.token.usage')[0]!.contentType).toBe('application/x-protobuf');
    const [record] = (await telemetryRecords(1)).filter((line) => line.operation === 'telemetry.metrics');
    expect(record).toMatchObject({
      person: PERSON, team: 'eng', session: 'sess-metrics-1', status: 200, outcome: ['ok'], route: '/v1/metrics',
      data: { telemetry: { signal: 'metrics', encoding: 'protobuf', gzip: false, resources: 1, items: 1, sessions: 1, relay: 'queued' } },
    });
    expect(JSON.stringify(record)).not.toContain('claude_code.token.usage');
  });

  it('logs in gzipped protobuf: a planted secret is refused (OTLP status), never relayed, recorded; a clean one lands', async () => {
    // The processor sends each record at once; its forceFlush does not wait for that send, so the results are awaited.
    const results: number[] = [];
    const exporter = new OTLPLogExporter({ url: `${rig.hub.url}/v1/logs`, headers: auth(), compression: 'gzip' });
    const provider = new LoggerProvider({ resource: resource(), processors: [new SimpleLogRecordProcessor({ exporter: {
      export: (records, done) => exporter.export(records, (result) => { results.push(result.code); done(result); }),
      shutdown: () => exporter.shutdown(), forceFlush: () => exporter.forceFlush(),
    } })] });
    const logger = provider.getLogger('com.anthropic.claude_code.events');
    logger.emit({ body: 'claude_code.user_prompt', attributes: { 'session.id': 'sess-logs-1', prompt: `deploy with ${SECRET} please` } });
    await waitUntil(() => results.length === 1, { what: 'the first logs export' });
    logger.emit({ body: 'claude_code.tool_result', attributes: { 'session.id': 'sess-logs-1', tool_name: 'Bash' } });
    await waitUntil(() => results.length === 2, { what: 'the second logs export' });
    await provider.shutdown();
    // ExportResultCode: 1 FAILED (the refusal), 0 SUCCESS.
    expect(results).toEqual([1, 0]);
    await waitUntil(() => atCollector('/v1/logs', 'claude_code.tool_result').length > 0, { what: 'the clean logs batch at the collector' });
    expect(received.some((batch) => batch.body.includes(SECRET))).toBe(false);
    const logs = (await telemetryRecords(3)).filter((line) => line.operation === 'telemetry.logs');
    expect(logs.map((line) => line.status)).toEqual([403, 200]);
    expect(logs[0]).toMatchObject({
      person: PERSON, session: 'sess-logs-1', outcome: ['GW_ERR_DLP_BLOCKED'], dlp: { github_token: 1 },
      data: { telemetry: { signal: 'logs', encoding: 'protobuf', gzip: true, items: 1, relay: 'none' } },
    });
    expect(JSON.stringify(logs)).not.toContain(SECRET);
  });

  it('the refusal is OTLP\'s google.rpc.Status in JSON, naming the rule, never the secret', async () => {
    const response = await fetch(`${rig.hub.url}/v1/logs`, {
      method: 'POST', headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: `token ${SECRET}` } }] }] }] }),
    });
    expect(response.status).toBe(403);
    const status = await response.json() as { code: number; message: string; details: Array<Record<string, unknown>> };
    expect(status.code).toBe(7);
    expect(status.message).toContain('github_token');
    expect(status.message).not.toContain(SECRET);
    expect(status.details[0]).toMatchObject({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'GW_ERR_DLP_BLOCKED' });
  });

  it('traces in JSON, with x-gw-session: relayed to the collector and recorded under that session', async () => {
    const exporter = new OTLPTraceExporter({ url: `${rig.hub.url}/v1/traces`, headers: { ...auth(), 'x-gw-session': 'sess-traces-1' } });
    const provider = new BasicTracerProvider({ resource: resource(), spanProcessors: [new SimpleSpanProcessor(exporter)] });
    provider.getTracer('claude-code').startSpan('claude_code.interaction').end();
    await provider.forceFlush();
    await provider.shutdown();
    await waitUntil(() => atCollector('/v1/traces', SERVICE).length > 0, { what: 'the traces batch at the collector' });
    const [record] = (await telemetryRecords(4)).filter((line) => line.operation === 'telemetry.traces');
    expect(record).toMatchObject({ person: PERSON, session: 'sess-traces-1', data: { telemetry: { signal: 'traces', encoding: 'json', items: 1, relay: 'queued' } } });
  });

  it('a chunked JSON body is accepted and reaches the collector byte for byte', async () => {
    const text = JSON.stringify({ resourceMetrics: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'chunked-sender' } }] }, scopeMetrics: [] }] });
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({ start(controller) { controller.enqueue(bytes.slice(0, 40)); controller.enqueue(bytes.slice(40)); controller.close(); } });
    const response = await fetch(`${rig.hub.url}/v1/metrics`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body, duplex: 'half' });
    expect(response.status).toBe(200);
    await waitUntil(() => atCollector('/v1/metrics', 'chunked-sender').length > 0, { what: 'the chunked batch at the collector' });
    expect(atCollector('/v1/metrics', 'chunked-sender')[0]!.body.toString('utf8')).toBe(text);
  });

  it('without a credential: 401 in Anthropic\'s shape, as on every route Claude Code calls', async () => {
    const response = await fetch(`${rig.hub.url}/v1/metrics`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'claude-cli/2.1.197' }, body: '{}' });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('a body over the limit once decompressed gets 413 in OTLP\'s shape', async () => {
    const { gzipSync } = await import('node:zlib');
    const bomb = gzipSync(Buffer.alloc(9 * 1024 * 1024, 0x20));
    const response = await fetch(`${rig.hub.url}/v1/logs`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: bomb });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 8, details: [{ reason: 'GW_ERR_REQUEST_TOO_LARGE' }] });
    expect(gunzipSync(bomb).length).toBeGreaterThan(8 * 1024 * 1024);
  });

  it('/metrics counts the batches by signal and outcome, their items, and the relay', async () => {
    const text = await (await fetch(`${rig.hub.url}/metrics`)).text();
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    // At least what the tests above sent (a retried test sends its batch again).
    expect(value('gw_telemetry_batches_total{signal="metrics",outcome="accepted"}')).toBeGreaterThanOrEqual(2);
    expect(value('gw_telemetry_batches_total{signal="logs",outcome="accepted"}')).toBeGreaterThanOrEqual(1);
    expect(value('gw_telemetry_batches_total{signal="logs",outcome="blocked"}')).toBeGreaterThanOrEqual(2);
    expect(value('gw_telemetry_batches_total{signal="logs",outcome="too_large"}')).toBeGreaterThanOrEqual(1);
    expect(value('gw_telemetry_items_total{signal="metrics"}')).toBeGreaterThanOrEqual(1);
    expect(value('gw_telemetry_relay_total{signal="metrics",outcome="relayed"}')).toBeGreaterThanOrEqual(2);
    expect(value('gw_telemetry_relay_total{signal="logs",outcome="relayed"}')).toBeGreaterThanOrEqual(1);
  });
});
