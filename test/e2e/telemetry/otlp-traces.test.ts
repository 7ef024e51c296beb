// OpenTelemetry traces over OTLP/HTTP, received by a small collector in the test: a
// translated streaming call with a fallback gives one SERVER span for the call (continuing
// the client's traceparent) and one CLIENT span per attempt as its children, with the GenAI
// attributes (operation, provider, model, token usage) and gw's (team, key id), never the
// prompt. The trace id is in the audit record and the log line.
import { createServer, type Server } from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runGwSetup as runGw } from '../../support/gateway-process.js';
import { auditRecord, startRig, type Rig } from '../forwarding/support.js';
import { readSettledAudit, waitUntil } from '../helpers.js';
import { runCodingTool } from '../coding-tools/run-coding-tool.js';

interface OtlpSpan { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes: Array<{ key: string; value: Record<string, unknown> }> }

let rig: Rig;
let collector: Server;
let collectorUrl: string;
const received: OtlpSpan[] = [];
const bodies: string[] = [];

beforeAll(async () => {
  collector = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => {
      bodies.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
      const parsed = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
      for (const resource of parsed.resourceSpans) for (const scope of resource.scopeSpans) received.push(...scope.spans);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const address = collector.address();
  collectorUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  rig = await startRig({
    eventDelayMs: 2,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_SERVICE_NAME: 'gw-under-test', GW_LOG_LEVEL: 'info' },
    prepareHome: async (home) => {
      // The first pick is Claude (by weight); it fails once, and the call falls back to Gemini.
      const added = await runGw(['routes', 'add', 'traced', '--target', 'anthropic/claude-sonnet-4-5,weight=1000000', '--target', 'gemini/gemini-2.5-flash,weight=1', '--home', home]);
      if (added.code !== 0) throw new Error(added.stderr);
      // A logging rule: it lets the Claude Code turn below through and is reported as a guardrail decision.
      const rule = await runGw(['dlp', 'add', 'ticket_ref', '--pattern', 'TICKET-[0-9]{6}', '--action', 'log', '--home', home]);
      if (rule.code !== 0) throw new Error(rule.stderr);
    },
  });
}, 60_000);

afterAll(async () => {
  await rig?.close();
  await new Promise((resolve) => collector?.close(resolve));
});

const attribute = (span: OtlpSpan, key: string): unknown => {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};

it('a translated streaming call with a fallback: a server span continuing the client trace, a client span per attempt, GenAI attributes', async () => {
  const clientTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
  const clientSpan = '00f067aa0ba902b7';
  rig.anthropic.setBehaviour({ status: 500 }, { times: 1 });
  const openai = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0, defaultHeaders: { traceparent: `00-${clientTrace}-${clientSpan}-01` } });
  const { data: stream, response } = await openai.chat.completions.create({
    model: 'traced', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'a secret-free prompt about tracing' }],
  }).withResponse();
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  expect(text).toBe('echo: a secret-free prompt about tracing');

  await waitUntil(() => received.filter((span) => span.traceId === clientTrace).length >= 3, { timeoutMs: 10_000, what: 'three spans at the collector' });
  const spans = received.filter((span) => span.traceId === clientTrace);
  const server = spans.find((span) => span.kind === 2)!;
  expect(server.parentSpanId).toBe(clientSpan);
  expect(server.name).toBe('chat traced');
  expect(attribute(server, 'gen_ai.operation.name')).toBe('chat');
  expect(attribute(server, 'gen_ai.request.model')).toBe('traced');
  expect(attribute(server, 'http.response.status_code')).toBe(200);
  expect(Number(attribute(server, 'gen_ai.usage.input_tokens'))).toBeGreaterThan(0);
  expect(Number(attribute(server, 'gen_ai.usage.output_tokens'))).toBeGreaterThan(0);
  expect(attribute(server, 'gw.team')).toBe('local');
  expect(attribute(server, 'gw.key_id')).toBeTruthy();

  const attempts = spans.filter((span) => span.kind === 3);
  expect(attempts.map((span) => attribute(span, 'gen_ai.provider.name'))).toEqual(['anthropic', 'gcp.gemini']);
  for (const attempt of attempts) expect(attempt.parentSpanId).toBe(server.spanId);
  expect(attribute(attempts[0]!, 'error.type')).toBe('GW_ERR_UPSTREAM_REJECTED');
  expect(attribute(attempts[0]!, 'http.response.status_code')).toBe(500);
  expect(attribute(attempts[1]!, 'http.response.status_code')).toBe(200);
  expect(attempts[1]!.name).toBe('chat gemini-2.5-flash');
  expect(attribute(attempts[1]!, 'gen_ai.request.model')).toBe('gemini-2.5-flash');
  expect(JSON.stringify(spans)).not.toContain('secret-free prompt');
  expect(JSON.stringify(spans)).not.toContain(rig.key);
  expect(bodies[0]).toMatch(/^POST \/v1\/traces application\/json/);

  const record = await auditRecord(rig.gw.home, response.headers.get('x-request-id')!);
  expect(record.data).toMatchObject({ trace_id: clientTrace });
  await waitUntil(() => rig.gw.stdout().includes(`"trace_id":"${clientTrace}"`) || rig.gw.stderr().includes(`"trace_id":"${clientTrace}"`), { timeoutMs: 5_000, what: 'the trace id in the log line' });
});

it('/metrics: streams get a time-to-first-byte histogram and the part gw added; the event-loop queue is sampled', async () => {
  const openai = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0 });
  const stream = await openai.chat.completions.create({ model: 'openai/gpt-4o', stream: true, messages: [{ role: 'user', content: 'first byte' }] });
  for await (const _chunk of stream) { /* drain */ }
  const labels = '{family="openai",operation="chat.completions"}';
  let text = '';
  await waitUntil(async () => {
    text = await (await fetch(`${rig.gw.url}/metrics`)).text();
    return text.includes(`gw_stream_first_byte_added_seconds_count${labels}`);
  }, { timeoutMs: 5_000, what: 'the first-byte histograms' });
  const value = (name: string) => Number(new RegExp(`^${name}${labels.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
  expect(value('gw_stream_first_byte_seconds_count')).toBeGreaterThanOrEqual(1);
  // The fake waits ~2 ms between events: gw's own part is less than the whole.
  expect(value('gw_stream_first_byte_added_seconds_sum')).toBeLessThan(value('gw_stream_first_byte_seconds_sum'));
  expect(Number(/^gw_event_loop_queue_seconds_count (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
});

it('a Claude Code session: its span carries the session as gen_ai.conversation.id (as in the trail), the agent, and the DLP verdict as an apply_guardrail span', async () => {
  const session = '6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
  const run = await runCodingTool('claude', { gwUrl: rig.gw.url, key: rig.key, model: 'anthropic/claude-sonnet-4-5', prompt: 'Say hello about TICKET-123456.', session: { id: session }, timeoutMs: 150_000 });
  expect(run.code, run.stderr).toBe(0);
  const records = (await readSettledAudit(rig.gw.home)).filter((record) => record.kind === 'request' && record.session === session);
  expect(records.length).toBeGreaterThan(0);
  expect(records.some((record) => (record.dlp as Record<string, number> | undefined)?.ticket_ref)).toBe(true);

  const sessionSpans = () => received.filter((span) => span.kind === 2 && attribute(span, 'gen_ai.conversation.id') === session);
  await waitUntil(() => sessionSpans().length >= records.length, { timeoutMs: 10_000, what: 'a span per recorded call of the session' });
  const servers = received.filter((span) => span.kind === 2 && attribute(span, 'gen_ai.conversation.id') === session);
  expect(servers.length).toBe(records.length);
  expect(attribute(servers[0]!, 'gen_ai.agent.name')).toBe('claude-code');
  expect(String(attribute(servers[0]!, 'gen_ai.agent.version'))).toMatch(/^\d+\.\d+\.\d+/);
  const guarded = servers.find((span) => received.some((child) => child.parentSpanId === span.spanId && child.name === 'apply_guardrail gw.dlp'));
  expect(guarded, 'a call the rule matched has an apply_guardrail child').toBeDefined();
  const guardrail = received.find((child) => child.parentSpanId === guarded!.spanId && child.name === 'apply_guardrail gw.dlp')!;
  expect(guardrail.kind).toBe(1);
  expect(attribute(guardrail, 'gen_ai.operation.name')).toBe('apply_guardrail');
  expect(attribute(guardrail, 'gen_ai.security.target.type')).toBe('llm_input');
  expect(attribute(guardrail, 'gen_ai.security.decision.type')).toBe('audit');
  expect(String(attribute(guardrail, 'gen_ai.security.policy.name')).split(',')).toContain('ticket_ref');
  expect(attribute(guardrail, 'gen_ai.conversation.id')).toBe(session);
  // The rule's name, never what it matched.
  expect(JSON.stringify(received)).not.toContain('TICKET-123456');
}, 180_000);
