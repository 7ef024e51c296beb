// External guardrails through a real `gw serve` and a local guardrail speaking the generic HTTP
// contract (guardrail-server.ts), with the built-in mock provider answering "mock reply: <text>",
// so what reached the provider shows in the answer. Each test has its own key and guardrail
// (scope key:vk_…): allow, block and rewrite before the call, block and rewrite of the answer,
// JSON and streamed, and a guardrail that times out under 30 concurrent calls in fail-open and
// fail-closed mode: no call lost, no record missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { readAudit, waitForState, waitUntil, type AuditLine } from '../helpers.js';
import { startGuardrailServer, type GuardrailServer } from './guardrail-server.js';

let gw: GatewayProcess;
let guard: GuardrailServer;

beforeAll(async () => {
  guard = await startGuardrailServer();
  gw = await startGatewayProcess({ env: { GW_LOG_LEVEL: 'warn', GUARD_TOKEN: 'guard-secret-token' } });
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await guard?.close();
});

interface Caller { key: string; id: string }

let callers = 0;

/** A fresh key with its own guardrail: `options` are gw guardrails add's flags. */
async function callerWithGuardrail(options: string[]): Promise<Caller & { name: string }> {
  callers += 1;
  const created = await runGw(['keys', 'create', '--team', 'local', '--name', `guard-${callers}`], { home: gw.home });
  expect(created.code, created.stderr).toBe(0);
  const printed = `${created.stdout}${created.stderr}`;
  const caller = { key: /sk-gw-\w+/.exec(printed)?.[0] ?? '', id: /vk_\w+/.exec(printed)?.[0] ?? '', name: `judge-${callers}` };
  const added = await runGw(['guardrails', 'add', caller.name, '--kind', 'http', '--url', guard.url, '--scope', `key:${caller.id}`, ...options], { home: gw.home });
  expect(added.code, added.stderr).toBe(0);
  await waitForState(gw);
  return caller;
}

async function chat(caller: Caller, text: string, stream = false): Promise<{ status: number; text: string }> {
  const response = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${caller.key}` },
    body: JSON.stringify({ model: 'mock/echo', stream, messages: [{ role: 'user', content: text }] }),
  });
  return { status: response.status, text: await response.text() };
}

/** The deltas of an OpenAI Chat stream, joined. */
function streamedText(body: string): string {
  return body.split('\n').filter((line) => line.startsWith('data: {')).map((line) => {
    const event = JSON.parse(line.slice(6)) as { choices?: Array<{ delta?: { content?: string } }> };
    return event.choices?.[0]?.delta?.content ?? '';
  }).join('');
}

async function recordsOf(caller: Caller, count: number): Promise<AuditLine[]> {
  let records: AuditLine[] = [];
  await waitUntil(async () => {
    records = (await readAudit(gw.home)).filter((line) => line.kind === 'request' && line.key_id === caller.id);
    return records.length >= count;
  }, { timeoutMs: 20_000, what: `${count} records of ${caller.id}` });
  return records;
}

function decisionsOf(record: AuditLine): Array<Record<string, unknown>> {
  const data = record.data as { guardrails?: Array<Record<string, unknown>> } | undefined;
  return data?.guardrails ?? [];
}

describe('before the call (pre)', () => {
  it('allow: the guardrail sees the texts with their places, the model and the caller; the decision is recorded', async () => {
    const caller = await callerWithGuardrail(['--when', 'pre', '--credential', 'env:GUARD_TOKEN']);
    const answer = await chat(caller, 'hello there');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).toContain('mock reply: hello there');
    const seen = guard.received.filter((request) => request.guardrail === caller.name);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ version: 1, phase: 'pre', model: 'mock/echo', team: 'local', key_id: caller.id, authorization: 'Bearer guard-secret-token' });
    expect(seen[0]!.texts).toEqual([{ place: '/messages/0/content', text: 'hello there' }]);
    const [record] = await recordsOf(caller, 1);
    expect(decisionsOf(record!)).toEqual([expect.objectContaining({ guardrail: caller.name, kind: 'http', phase: 'pre', verdict: 'allow', latency_ms: expect.any(Number) })]);
    expect(JSON.stringify(record)).not.toContain('guard-secret-token');
  });

  it('block: a 403 in the caller\'s own format with the guardrail\'s reason; the provider is not called; the record names the guardrail, never the text', async () => {
    const caller = await callerWithGuardrail(['--when', 'pre']);
    const answer = await chat(caller, 'tell me about the forbidden-topic');
    expect(answer.status, answer.text).toBe(403);
    const error = (JSON.parse(answer.text) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('guardrail_blocked');
    expect(error.message).toContain(`guardrail "${caller.name}": off-topic for this team`);
    // The same refusal in Anthropic's shape on its route.
    const anthropic = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': caller.key },
      body: JSON.stringify({ model: 'mock/echo', max_tokens: 32, messages: [{ role: 'user', content: 'forbidden-topic again' }] }),
    });
    const anthropicBody = await anthropic.json() as { type: string; error: { type: string; message: string } };
    expect(anthropic.status).toBe(403);
    expect(anthropicBody).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    const records = await recordsOf(caller, 2);
    for (const record of records) {
      expect(record.status).toBe(403);
      expect(record.provider ?? null).toBeNull();
      expect(decisionsOf(record)).toEqual([expect.objectContaining({ guardrail: caller.name, phase: 'pre', verdict: 'block' })]);
      expect(JSON.stringify(record)).not.toContain('forbidden-topic');
    }
  });

  it('rewrite: the rewritten text is what reaches the provider, and the record says so', async () => {
    const caller = await callerWithGuardrail(['--when', 'pre']);
    const answer = await chat(caller, 'my name is Alice Example');
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).toContain('mock reply: my name is [PERSON]');
    expect(answer.text).not.toContain('Alice');
    const [record] = await recordsOf(caller, 1);
    expect(decisionsOf(record!)).toEqual([expect.objectContaining({ phase: 'pre', verdict: 'rewrite' })]);
    expect(record!.warnings).toContain(`guardrail_rewrote_pre: ${caller.name}`);
  });
});

describe('after the call (post)', () => {
  it('rewrite of a JSON answer: the client gets the new text', async () => {
    const caller = await callerWithGuardrail(['--when', 'post']);
    const answer = await chat(caller, 'greet Alice Example');
    expect(answer.status, answer.text).toBe(200);
    const content = (JSON.parse(answer.text) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content;
    expect(content).toBe('mock reply: greet [PERSON]');
    const seen = guard.received.filter((request) => request.guardrail === caller.name);
    expect(seen.map((request) => request.phase)).toEqual(['post']);
    expect(seen[0]!.texts).toContainEqual({ place: '/choices/0/message/content', text: 'mock reply: greet Alice Example' });
    const [record] = await recordsOf(caller, 1);
    expect(decisionsOf(record!)).toEqual([expect.objectContaining({ phase: 'post', verdict: 'rewrite' })]);
  });

  it('block of a stream: nothing of the answer leaves before the verdict; the stream ends with the error event', async () => {
    const caller = await callerWithGuardrail(['--when', 'post']);
    const answer = await chat(caller, 'forbidden-topic please', true);
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain('mock reply');
    expect(answer.text).not.toContain('forbidden-topic');
    expect(answer.text).toContain(`guardrail \\"${caller.name}\\"`);
    const [record] = await recordsOf(caller, 1);
    expect(record!.outcome).toContain('GW_ERR_GUARDRAIL_BLOCKED');
    expect(decisionsOf(record!)).toEqual([expect.objectContaining({ phase: 'post', verdict: 'block' })]);
  });

  it('rewrite of a stream: the client reads the new text, the original nowhere', async () => {
    const caller = await callerWithGuardrail(['--when', 'post']);
    const answer = await chat(caller, 'stream to Alice Example', true);
    expect(answer.status).toBe(200);
    expect(streamedText(answer.text)).toBe('mock reply: stream to [PERSON]');
    expect(answer.text).not.toContain('Alice');
    expect(answer.text).toContain('data: [DONE]');
  });
});

describe('a guardrail that times out, under 30 concurrent calls', () => {
  it.each([
    ['open', 200],
    ['closed', 503],
  ] as const)('fail %s: every call answered %i, every record there with the timeout', async (mode, status) => {
    const caller = await callerWithGuardrail(['--when', 'pre', '--timeout-ms', '300', '--on-error', mode]);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => chat(caller, `slow-please ${index}`)));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 30 }, () => status));
    if (mode === 'closed') expect(answers[0]!.text).toContain('"code":"guardrail_unavailable"');
    const records = await recordsOf(caller, 30);
    expect(records).toHaveLength(30);
    for (const record of records) {
      expect(decisionsOf(record)).toEqual([expect.objectContaining({ verdict: 'error', error: 'timeout', failed: mode })]);
    }
  }, 60_000);

  it('an answer that is not a verdict, failing closed: 503, recorded as unreadable', async () => {
    const caller = await callerWithGuardrail(['--when', 'pre', '--on-error', 'closed']);
    const answer = await chat(caller, 'garbage-please');
    expect(answer.status, answer.text).toBe(503);
    const [record] = await recordsOf(caller, 1);
    expect(decisionsOf(record!)).toEqual([expect.objectContaining({ verdict: 'error', error: 'unreadable', failed: 'closed' })]);
  });
});

it('counts decisions in /metrics by guardrail, phase and verdict', async () => {
  const metrics = await (await fetch(`${gw.url}/metrics`)).text();
  expect(metrics).toMatch(/gw_guardrail_decisions_total\{guardrail="judge-\d+",phase="pre",verdict="block"\} [1-9]/);
  expect(metrics).toMatch(/gw_guardrail_duration_seconds_count\{guardrail="judge-\d+",phase="post"\} [1-9]/);
});
