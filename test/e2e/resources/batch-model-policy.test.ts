// Batches under the model lists, through a real `gw serve` with the official openai SDK,
// against local providers that implement files and batches for real and record what they
// receive. An OpenAI batch runs the models its input file's lines name: gw reads them as the
// file is uploaded through it, and checks them before the batch is created; a file gw never
// saw is refused where a model list applies. An Anthropic message batch names its models inline.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { waitForState } from '../helpers.js';
import { startFakeResourceProvider, type FakeResourceProvider } from './fake-resource-provider.js';
import { startAnthropicBatchFake, type JsonFake } from './small-fakes.js';

const KEYS = { openai: 'sk-fake-openai-batch', anthropic: 'sk-ant-fake-batch' };
type KeyName = 'ok' | 'allowAnthropic' | 'allowOpenai' | 'allowMini';

let gw: GatewayProcess;
let openaiFake: FakeResourceProvider;
let anthropicFake: JsonFake;
const keys = {} as Record<KeyName, { key: string; id: string }>;
const clients = {} as Record<KeyName, OpenAI>;

async function gwCommand(...args: string[]): Promise<string> {
  const result = await runGw(args, { home: gw.home });
  expect(result.code, result.stderr).toBe(0);
  return `${result.stdout}${result.stderr}`;
}

beforeAll(async () => {
  [openaiFake, anthropicFake] = await Promise.all([startFakeResourceProvider(KEYS.openai), startAnthropicBatchFake()]);
  gw = await startGatewayProcess({
    env: {
      OPENAI_API_KEY: KEYS.openai, OPENAI_BASE_URL: `${openaiFake.url}/v1`,
      ANTHROPIC_API_KEY: KEYS.anthropic, ANTHROPIC_BASE_URL: anthropicFake.url, GW_LOG_LEVEL: 'warn',
    },
  });
  for (const name of ['ok', 'allowAnthropic', 'allowOpenai', 'allowMini'] as const) {
    const out = await gwCommand('keys', 'create', '--team', 'local', '--name', name);
    keys[name] = { key: /sk-gw-\w+/.exec(out)![0], id: /vk_\w+/.exec(out)![0] };
    clients[name] = new OpenAI({ apiKey: keys[name].key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  }
  await gwCommand('policy', 'set', `key:${keys.allowAnthropic.id}`, '--allow-models', 'anthropic/*');
  await gwCommand('policy', 'set', `key:${keys.allowOpenai.id}`, '--allow-models', 'openai/*');
  await gwCommand('policy', 'set', `key:${keys.allowMini.id}`, '--allow-models', 'openai/gpt-4o-mini');
  await waitForState(gw);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await Promise.all([openaiFake?.close(), anthropicFake?.close()]);
});

const line = (id: string, model: string) => `${JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model, messages: [{ role: 'user', content: 'hi' }] } })}\n`;
const batchesCreated = () => openaiFake.seen.filter((seen) => seen.method === 'POST' && seen.path === '/v1/batches').length;

async function upload(key: KeyName, content: string): Promise<string> {
  const file = await clients[key].files.create({ file: await toFile(Buffer.from(content), 'batch.jsonl'), purpose: 'batch' });
  return file.id;
}

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string; code: unknown }> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error, 'expected a refusal').toBeInstanceOf(OpenAI.APIError);
  const api = error as InstanceType<typeof OpenAI.APIError>;
  return { status: api.status ?? 0, message: api.message, code: api.code };
}

const create = (key: KeyName, fileId: string) => clients[key].batches.create({ input_file_id: fileId, endpoint: '/v1/chat/completions', completion_window: '24h' });

describe('an OpenAI batch runs the models of its input file', () => {
  it('a file whose lines run gpt-4o: the upload passes, the batch is refused under allow_models anthropic/*, naming line and model', async () => {
    const fileId = await upload('allowAnthropic', line('a', 'gpt-4o') + line('b', 'gpt-4o'));
    expect(openaiFake.files.has(fileId)).toBe(true);
    const before = batchesCreated();
    const refused = await refusal(create('allowAnthropic', fileId));
    expect(refused.status).toBe(403);
    expect(refused.message).toContain('openai/gpt-4o');
    expect(refused.message).toContain('line 1');
    expect(refused.message).toContain('allow_models');
    expect(batchesCreated()).toBe(before);
    // The same file under a list that allows it: created.
    const batch = await create('allowOpenai', fileId);
    expect(batch.input_file_id).toBe(fileId);
    expect(batchesCreated()).toBe(before + 1);
  });

  it('the line that runs a model outside the list is named, whichever it is', async () => {
    const fileId = await upload('ok', line('a', 'gpt-4o-mini') + line('b', 'gpt-4o-mini') + line('c', 'gpt-4o'));
    const refused = await refusal(create('allowMini', fileId));
    expect(refused.status).toBe(403);
    expect(refused.message).toMatch(/"openai\/gpt-4o".*line 3/);
    const allowed = await upload('ok', line('a', 'gpt-4o-mini'));
    expect((await create('allowMini', allowed)).status).toBe('validating');
  });

  it('a file with a line gw cannot read is refused under a model list, saying which', async () => {
    const fileId = await upload('ok', line('a', 'gpt-4o-mini') + 'not json\n');
    const refused = await refusal(create('allowMini', fileId));
    expect(refused.status).toBe(403);
    expect(refused.code).toBe('policy_model_unreadable');
    expect(refused.message).toContain('line 2 is not JSON');
  });

  it('a file gw never saw is refused under a model list, and says so; without a list it is created', async () => {
    const before = batchesCreated();
    const refused = await refusal(create('allowOpenai', 'file-uploaded-elsewhere'));
    expect(refused.status).toBe(403);
    expect(refused.code).toBe('policy_model_unreadable');
    expect(refused.message).toContain('not uploaded through this gateway');
    expect(batchesCreated()).toBe(before);
    expect((await create('ok', 'file-uploaded-elsewhere')).input_file_id).toBe('file-uploaded-elsewhere');
  });

  it('through the OpenAI passthrough, the same check', async () => {
    const fileId = await upload('ok', line('a', 'gpt-4o'));
    const post = (key: KeyName) => fetch(`${gw.url}/openai_passthrough/v1/batches`, {
      method: 'POST', headers: { authorization: `Bearer ${keys[key].key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input_file_id: fileId, endpoint: '/v1/chat/completions', completion_window: '24h' }),
    });
    const before = batchesCreated();
    const refused = await post('allowAnthropic');
    const text = await refused.text();
    expect(refused.status, text).toBe(403);
    expect(text).toContain('line 1');
    expect(batchesCreated()).toBe(before);
    const passed = await post('allowOpenai');
    expect(passed.status, await passed.text()).toBe(200);
    expect(batchesCreated()).toBe(before + 1);
  });
});

describe('an Anthropic message batch names its models inline', () => {
  const body = (model: string) => JSON.stringify({ requests: [{ custom_id: 'a', params: { model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] } }] });
  const post = (key: KeyName, path: string, model: string) => fetch(`${gw.url}${path}`, {
    method: 'POST', headers: { 'x-api-key': keys[key].key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, body: body(model),
  });

  it.each(['/v1/messages/batches', '/anthropic_passthrough/v1/messages/batches'])('%s: refused under allow_models openai/*, created under anthropic/*', async (path) => {
    const before = anthropicFake.seen.length;
    const refused = await post('allowOpenai', path, 'claude-sonnet-4-5');
    const text = await refused.text();
    expect(refused.status, text).toBe(403);
    expect(text).toContain('anthropic/claude-sonnet-4-5');
    expect(anthropicFake.seen.length).toBe(before);
    const created = await post('allowAnthropic', path, 'claude-sonnet-4-5');
    expect(created.status, await created.text()).toBe(200);
    expect(anthropicFake.seen.length).toBe(before + 1);
  });
});
