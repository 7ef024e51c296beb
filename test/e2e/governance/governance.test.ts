// Policy, DLP, routing rules and bring-your-own-key through a real `gw serve`
// and the official SDKs: the same secret caught in every dialect, fallbacks on
// every way a provider fails (with both attempts in the audit record), a rate
// limit that holds under concurrent load, and BYOK on and off.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup as runGw } from '../../support/gateway-process.js';
import { startFakeProvider, type FakeProvider } from '../../support/fake-providers/index.js';
import { readAudit, waitForState } from '../helpers.js';
import { auditRecordWhere, post, startRig, UPSTREAM_KEYS, type Rig } from '../forwarding/support.js';
import { SAMPLES } from '../../dlp/samples.js';

const SECRET = SAMPLES.githubPat;
let rig: Rig;
let backup: FakeProvider;
let openai: OpenAI;
let anthropic: Anthropic;
let genai: GoogleGenAI;

async function gw(...args: string[]): Promise<void> {
  const result = await runGw(args, { home: rig.gw.home });
  expect(result.code, result.stderr).toBe(0);
}

beforeAll(async () => {
  backup = await startFakeProvider('openai', { apiKey: 'sk-backup-upstream-key', eventDelayMs: 10 });
  rig = await startRig({
    eventDelayMs: 10,
    env: { BACKUP_KEY: 'sk-backup-upstream-key' },
    prepareHome: async (home) => {
      for (const args of [
        ['providers', 'add', 'backup', '--kind', 'openai', '--base-url', `${backup.url}/v1`, '--api-key-env', 'BACKUP_KEY'],
        // The primary is picked (weights 100 : 0.0001) unless it fails; then the backup answers.
        ['routes', 'add', 'fb', '--target', 'openai/gpt-4o,weight=100,timeout=1000', '--target', 'backup/gpt-4o-mini,weight=0.0001'],
      ]) {
        const result = await runGw(args, { home });
        expect(result.code, result.stderr).toBe(0);
      }
    },
  });
  openai = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: rig.key, baseURL: rig.gw.url, maxRetries: 0 });
  genai = new GoogleGenAI({ apiKey: rig.key, httpOptions: { baseUrl: `${rig.gw.url}/genai` } });
}, 60_000);

afterAll(async () => {
  if (process.env.GW_DEBUG_STDERR) process.stderr.write(rig?.gw.stderr() ?? '');
  await rig?.close();
  await backup?.close();
});

async function expectNoSecretAnywhere(): Promise<void> {
  const audit = JSON.stringify(await readAudit(rig.gw.home));
  expect(audit).not.toContain(SECRET);
  expect(rig.gw.stdout() + rig.gw.stderr()).not.toContain(SECRET);
  for (const fake of [...rig.fakes(), backup]) for (const request of fake.requests) expect(request.body).not.toContain(SECRET);
}

describe('DLP: the same secret is blocked in every dialect (default: secrets block)', () => {
  it('OpenAI message', async () => {
    const error = await openai.chat.completions.create({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: `token ${SECRET}` }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    const denied = error as InstanceType<typeof OpenAI.PermissionDeniedError>;
    expect(denied.message).toContain('github_token');
    expect(denied.message).not.toContain(SECRET);
    expect((denied.error as { code?: string }).code).toBe('dlp_blocked');
    const record = await auditRecordWhere(rig.gw.home, (line) => line.status === 403 && line.family === 'openai');
    expect(record).toMatchObject({ dlp: { github_token: 1 }, outcome: ['GW_ERR_DLP_BLOCKED'] });
  });

  it('Anthropic tool result', async () => {
    const error = await anthropic.messages.create({
      model: 'anthropic/claude-sonnet-4-5', max_tokens: 16,
      messages: [
        { role: 'user', content: 'read .env' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: '.env' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: `GITHUB_TOKEN=${SECRET}\n` }] },
      ],
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect((error as InstanceType<typeof Anthropic.PermissionDeniedError>).error).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect(String((error as Error).message)).toContain('github_token');
  });

  it('GenAI part', async () => {
    const error = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: [{ role: 'user', parts: [{ text: 'hi' }, { text: SECRET }] }] }).catch((caught: unknown) => caught);
    expect(String(error)).toContain('PERMISSION_DENIED');
    expect(String(error)).toContain('github_token');
  });

  it('Responses input item (same-format to the OpenAI fake at /v1/responses)', async () => {
    const error = await openai.responses.create({
      model: 'openai/gpt-4o', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: `see ${SECRET}` }] }],
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(String((error as Error).message)).toContain('github_token');
  });

  it('a secret split by a zero-width space across two parts is still caught', async () => {
    const response = await post(rig, '/v1/chat/completions', {
      model: 'openai/gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: SECRET.slice(0, 20) }, { type: 'text', text: `\u200B${SECRET.slice(20)}` }] }],
    });
    expect(response.status).toBe(403);
  });

  it('a duplicate key cannot smuggle the secret past the scan', async () => {
    const before = rig.openai.requests.length;
    const raw = `{"model":"openai/gpt-4o","messages":[{"role":"user","content":"${SECRET}","content":"hello"}]}`;
    const response = await post(rig, '/v1/chat/completions', raw);
    expect(response.status).toBe(200);
    expect(rig.openai.requests.length).toBe(before + 1);
    expect(rig.openai.requests.at(-1)!.body).not.toContain(SECRET);
    await expectNoSecretAnywhere();
  });

  it('redact: the provider sees the typed placeholder, the client an answer; reloaded without a restart', async () => {
    await gw('dlp', 'set', 'github_token', 'redact');
    await waitForState(rig.gw);
    const answer = await openai.chat.completions.create({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: `token ${SECRET}` }] });
    expect(answer.choices[0]!.message.content).toContain('[REDACTED:github_token]');
    expect(rig.openai.requests.at(-1)!.json).toMatchObject({ messages: [{ content: 'token [REDACTED:github_token]' }] });
    await expectNoSecretAnywhere();
    await gw('dlp', 'remove', 'github_token');
  });
});

describe('routing rules: fallback to the next target, both attempts audited', () => {
  const cases: Array<[string, Parameters<FakeProvider['setBehaviour']>[0]]> = [
    ['429 with retry-after', { status: 429, retryAfterSeconds: 1 }],
    ['500', { status: 500 }],
    ['a hang (per-target time-out)', { hangBeforeHeaders: true }],
    ['a connection reset', { resetAfterEvents: 0 }],
  ];
  it.each(cases)('%s', async (_name, behaviour) => {
    rig.openai.setBehaviour(behaviour, { times: 1 });
    const { data, response } = await openai.chat.completions.create({ model: 'fb', messages: [{ role: 'user', content: 'hello' }] }).withResponse();
    expect(data.model).toBe('gpt-4o-mini');
    const id = response.headers.get('x-request-id')!;
    const record = await auditRecordWhere(rig.gw.home, (line) => line.request_id === id);
    const attempts = (record.data as { attempts: Array<{ target: string }> }).attempts;
    expect(attempts.map((attempt) => attempt.target)).toEqual(['openai/gpt-4o', 'backup/gpt-4o-mini']);
    expect(record.provider).toBe('backup');
  });

  it.each([['500', { status: 500 }], ['429', { status: 429, retryAfterSeconds: 0 }]] as const)('a translated call (an Anthropic client on OpenAI targets) falls back the same way on %s', async (_name, behaviour) => {
    rig.openai.setBehaviour(behaviour, { times: 1 });
    const response = await post(rig, '/v1/messages', { model: 'fb', max_tokens: 16, messages: [{ role: 'user', content: 'hello translated' }] }, { 'anthropic-version': '2023-06-01' });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(((await response.json()) as { content: Array<{ text: string }> }).content[0]!.text).toBe('echo: hello translated');
    const record = await auditRecordWhere(rig.gw.home, (line) => line.request_id === response.headers.get('x-request-id'));
    expect((record.data as { attempts: Array<{ target: string }> }).attempts.map((attempt) => attempt.target)).toEqual(['openai/gpt-4o', 'backup/gpt-4o-mini']);
    expect(record.provider).toBe('backup');
  });

  it('a 4xx the request caused is not retried elsewhere', async () => {
    rig.openai.setBehaviour({ status: 400, errorMessage: 'bad request' }, { times: 1 });
    const before = backup.requests.length;
    const error = await openai.chat.completions.create({ model: 'fb', messages: [{ role: 'user', content: 'x' }] }).catch((caught: unknown) => caught);
    expect((error as { status?: number }).status).toBe(400);
    expect(backup.requests.length).toBe(before);
  });
});

describe('bring your own key', () => {
  it('off: the header is refused with a clear 403', async () => {
    const response = await post(rig, '/v1/chat/completions', { model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'x' }] }, { 'x-gw-direct-key': 'true' });
    expect(response.status).toBe(403);
    expect(JSON.stringify(await response.json())).toContain('allow_direct_keys');
  });

  it('on: the caller\'s own key goes upstream, never into the audit', async () => {
    await gw('settings', 'set', 'allow_direct_keys', 'on');
    await waitForState(rig.gw);
    const direct = `sk-direct-${'k'.repeat(30)}`;
    const response = await fetch(`${rig.gw.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${direct}`, 'x-gw-vk': rig.key, 'x-gw-direct-key': 'true', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: 'x' }] }),
    });
    // The fake only knows its own key: its 401 proves the caller's key was the one sent.
    expect(response.status).toBe(401);
    expect(rig.openai.requests.at(-1)!.headers.authorization).toBe(`Bearer ${direct}`);
    const record = await auditRecordWhere(rig.gw.home, (line) => line.request_id === response.headers.get('x-request-id'));
    expect((record.data as { direct_key?: string }).direct_key).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect(JSON.stringify(await readAudit(rig.gw.home))).not.toContain(direct);
    expect(UPSTREAM_KEYS.openai).not.toBe(direct);
  });
});

describe('policy', () => {
  it('a denied model is refused with the reason; shadow mode records and serves', async () => {
    await gw('policy', 'set', 'team:local', '--deny-models', 'mock/forbidden*');
    await waitForState(rig.gw);
    const refused = await post(rig, '/v1/chat/completions', { model: 'mock/forbidden-1', messages: [{ role: 'user', content: 'x' }] });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('deny_models');
    await gw('policy', 'set', 'team:local', '--mode', 'shadow');
    await waitForState(rig.gw);
    const served = await post(rig, '/v1/chat/completions', { model: 'mock/forbidden-1', messages: [{ role: 'user', content: 'x' }] });
    expect(served.status).toBe(200);
    const record = await auditRecordWhere(rig.gw.home, (line) => line.request_id === served.headers.get('x-request-id'));
    expect(record.warnings?.some((warning) => warning.includes('deny_models'))).toBe(true);
    await gw('policy', 'remove', 'team:local');
  });

  it('requests per minute hold under concurrent load: exactly M of N get through, the rest 429 with retry-after', async () => {
    await gw('policy', 'set', 'team:local', '--rpm', '5');
    await waitForState(rig.gw);
    const responses = await Promise.all(Array.from({ length: 20 }, () => post(rig, '/v1/messages', { model: 'mock/echo', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }, { 'anthropic-version': '2023-06-01' })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    const limited = responses.find((response) => response.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });
});
