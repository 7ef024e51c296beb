// Passthrough under model policy, against a real `gw serve` and provider-shaped servers on
// loopback that record every request they receive. The model a passthrough call runs is read
// from its body (JSON whatever the declared type, a multipart form's `model` field) or its path
// (GenAI `models/{model}:method`, Azure `deployments/{name}/`), checked provider-qualified
// (`openai/gpt-4o` through the OpenAI passthrough) against allow_models and deny_models, and
// written to the audit record, so `gw usage --by model` counts it. A body whose model cannot be
// read is refused when a model list applies; listing models is not running one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { SAMPLES } from '../dlp/samples.js';
import { readAudit, sleep, waitForState, type AuditLine } from './helpers.js';
import { startCatchAllProvider, type CatchAllProvider } from './corridor/catch-all-provider.js';

type Fake = 'openai' | 'anthropic' | 'gemini';
type KeyName = 'ok' | 'denyOpenai' | 'allowOpenai' | 'allowAnthropic' | 'allowGemini' | 'denyBare' | 'shadow';

let gw: GatewayProcess;
const fakes = {} as Record<Fake, CatchAllProvider>;
const keys = {} as Record<KeyName, { key: string; id: string }>;

async function gwCommand(...args: string[]): Promise<string> {
  const result = await runGw(args, { home: gw.home });
  expect(result.code, result.stderr).toBe(0);
  return `${result.stdout}${result.stderr}`;
}

beforeAll(async () => {
  for (const name of ['openai', 'anthropic', 'gemini'] as const) fakes[name] = await startCatchAllProvider(SAMPLES.githubPat);
  gw = await startGatewayProcess({
    env: {
      OPENAI_API_KEY: 'sk-upstream-openai', OPENAI_BASE_URL: `${fakes.openai.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: fakes.anthropic.url,
      GEMINI_API_KEY: 'upstream-gemini', GOOGLE_GEMINI_BASE_URL: fakes.gemini.url,
      GW_LOG_LEVEL: 'warn',
    },
  });
  for (const name of ['ok', 'denyOpenai', 'allowOpenai', 'allowAnthropic', 'allowGemini', 'denyBare', 'shadow'] as const) {
    const out = await gwCommand('keys', 'create', '--team', 'local', '--name', name);
    keys[name] = { key: /sk-gw-\w+/.exec(out)![0], id: /vk_\w+/.exec(out)![0] };
  }
  await gwCommand('policy', 'set', `key:${keys.denyOpenai.id}`, '--deny-models', 'openai/*');
  await gwCommand('policy', 'set', `key:${keys.allowOpenai.id}`, '--allow-models', 'openai/*');
  await gwCommand('policy', 'set', `key:${keys.allowAnthropic.id}`, '--allow-models', 'anthropic/*');
  await gwCommand('policy', 'set', `key:${keys.allowGemini.id}`, '--allow-models', 'gemini/*');
  // An admin who writes the bare name the client sends means the same model.
  await gwCommand('policy', 'set', `key:${keys.denyBare.id}`, '--deny-models', 'gpt-4o');
  await gwCommand('policy', 'set', `key:${keys.shadow.id}`, '--allow-models', 'anthropic/*', '--mode', 'shadow');
  // Routing rules whose names hide the models they lead to.
  await gwCommand('routes', 'add', 'smart', '--target', 'openai/gpt-4o,weight=1', '--target', 'anthropic/claude-sonnet-4-5,weight=1');
  await gwCommand('routes', 'add', 'openai-only', '--target', 'openai/gpt-4o');
  await waitForState(gw);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await Promise.all(Object.values(fakes).map((fake) => fake.close()));
});

interface Sent { status: number; text: string; requestId: string | null }

function requestCount(): number {
  return Object.values(fakes).reduce((sum, fake) => sum + fake.requests.length, 0);
}

async function send(key: KeyName, method: string, path: string, body?: string | FormData, contentType?: string): Promise<Sent> {
  const headers: Record<string, string> = { authorization: `Bearer ${keys[key].key}` };
  if (contentType) headers['content-type'] = contentType;
  const response = await fetch(`${gw.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: response.status, text: await response.text(), requestId: response.headers.get('x-request-id') };
}

const OPENAI_CHAT = ['POST', '/openai_passthrough/v1/chat/completions', JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })] as const;
const ANTHROPIC_MESSAGES = ['POST', '/anthropic_passthrough/v1/messages', JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] })] as const;
const GENAI_GENERATE = ['POST', '/genai_passthrough/v1beta/models/gemini-2.5-flash:generateContent', JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })] as const;

type Call = readonly [method: string, path: string, body: string];
const FAMILIES: Array<[family: Fake, call: Call, model: string]> = [
  ['openai', OPENAI_CHAT, 'openai/gpt-4o'],
  ['anthropic', ANTHROPIC_MESSAGES, 'anthropic/claude-sonnet-4-5'],
  ['gemini', GENAI_GENERATE, 'gemini/gemini-2.5-flash'],
];

/** Which keys each family's call passes: the others are refused before any provider. */
const PASSES: Record<Fake, KeyName[]> = {
  openai: ['ok', 'allowOpenai', 'shadow'],
  anthropic: ['ok', 'denyOpenai', 'allowAnthropic', 'denyBare', 'shadow'],
  gemini: ['ok', 'denyOpenai', 'allowGemini', 'denyBare', 'shadow'],
};

describe('each passthrough family under allow_models and deny_models', () => {
  const every: KeyName[] = ['ok', 'denyOpenai', 'allowOpenai', 'allowAnthropic', 'allowGemini', 'denyBare', 'shadow'];
  const cases = FAMILIES.flatMap(([family, call, model]) => every.map((key) => [family, key, call, model] as const));
  it.each(cases)('%s passthrough, key %s', async (family, key, call, model) => {
    const before = fakes[family].requests.length;
    const sent = await send(key, call[0], call[1], call[2], 'application/json');
    if (PASSES[family].includes(key)) {
      expect(sent.status, sent.text).toBe(200);
      expect(fakes[family].requests.length).toBe(before + 1);
    } else {
      expect(sent.status, sent.text).toBe(403);
      expect(sent.text).toMatch(/allow_models|deny_models/);
      expect(sent.text).toContain(model.split('/')[1]);
      expect(fakes[family].requests.length).toBe(before);
    }
  });
});

describe('the normal routes match the same names', () => {
  const chat = (model: string) => JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] });
  it.each([
    ['denyOpenai', 'gpt-4o', 403], ['allowOpenai', 'gpt-4o', 200], ['denyBare', 'openai/gpt-4o', 403], ['allowAnthropic', 'gpt-4o', 403],
    ['denyOpenai', 'claude-sonnet-4-5', 200],
  ] as const)('key %s, /v1/chat/completions with model %s: %i', async (key, model, status) => {
    const before = requestCount();
    const sent = await send(key, 'POST', '/v1/chat/completions', chat(model), 'application/json');
    expect(sent.status, sent.text).toBe(status);
    expect(requestCount()).toBe(status === 200 ? before + 1 : before);
  });
});

describe('a routing rule\'s targets under deny_models', () => {
  const chat = (model: string) => JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] });

  it('a denied target is skipped; a rule left with none is refused, naming the target\'s model', async () => {
    const before = fakes.openai.requests.length;
    for (let call = 0; call < 6; call += 1) {
      const sent = await send('denyOpenai', 'POST', '/v1/chat/completions', chat('smart'), 'application/json');
      expect(sent.status, sent.text).toBe(200);
    }
    expect(fakes.openai.requests.length).toBe(before);
    const refused = await send('denyOpenai', 'POST', '/v1/chat/completions', chat('openai-only'), 'application/json');
    expect(refused.status, refused.text).toBe(403);
    expect(refused.text).toContain('openai/gpt-4o');
    expect(refused.text).toContain('deny_models');
    expect(fakes.openai.requests.length).toBe(before);
    // Without a list, the same rule reaches OpenAI.
    const served = await send('ok', 'POST', '/v1/chat/completions', chat('openai-only'), 'application/json');
    expect(served.status, served.text).toBe(200);
    expect(fakes.openai.requests.length).toBe(before + 1);
  });
});

describe('the model is read whatever the body declares', () => {
  it('JSON sent as text/plain, and with no content type, is read as JSON', async () => {
    const before = requestCount();
    for (const type of ['text/plain', 'application/octet-stream', undefined]) {
      const sent = await send('denyOpenai', OPENAI_CHAT[0], OPENAI_CHAT[1], OPENAI_CHAT[2], type);
      expect(sent.status, `${type}: ${sent.text}`).toBe(403);
      expect(sent.text).toContain('deny_models');
    }
    expect(requestCount()).toBe(before);
  });

  it('a multipart form\'s model field is read before anything is forwarded, before or after its file', async () => {
    const form = (modelFirst: boolean) => {
      const data = new FormData();
      const file = new Blob([Buffer.alloc(64 * 1024, 1)], { type: 'audio/wav' });
      // openai-node builds the form in the order of its params ({ file, model }); Python's SDK puts fields first.
      if (modelFirst) data.append('model', 'whisper-1');
      data.append('file', file, 'a.wav');
      if (!modelFirst) data.append('model', 'whisper-1');
      return data;
    };
    for (const modelFirst of [true, false]) {
      const before = requestCount();
      const refused = await send('allowAnthropic', 'POST', '/openai_passthrough/v1/audio/transcriptions', form(modelFirst));
      expect(refused.status, refused.text).toBe(403);
      expect(refused.text).toContain('openai/whisper-1');
      expect(requestCount()).toBe(before);
      const passed = await send('allowOpenai', 'POST', '/openai_passthrough/v1/audio/transcriptions', form(modelFirst));
      expect(passed.status, passed.text).toBe(200);
      // The provider got the whole form, as the client sent it.
      const seen = fakes.openai.requests.at(-1)!;
      expect(seen.body.toString('latin1')).toContain('whisper-1');
      expect(seen.body.length).toBeGreaterThan(64 * 1024);
    }
  });

  it('a normal route\'s form is read for deny_models too', async () => {
    const form = () => {
      const data = new FormData();
      data.append('file', new Blob([Buffer.alloc(4096, 1)], { type: 'audio/wav' }), 'a.wav');
      data.append('model', 'whisper-1');
      return data;
    };
    const before = requestCount();
    const refused = await send('denyOpenai', 'POST', '/v1/audio/transcriptions', form());
    expect(refused.status, refused.text).toBe(403);
    expect(refused.text).toContain('deny_models');
    expect(requestCount()).toBe(before);
    const passed = await send('denyBare', 'POST', '/v1/audio/transcriptions', form());
    expect(passed.status, passed.text).toBe(200);
    expect(requestCount()).toBe(before + 1);
  });

  it('a model in an Azure deployment path is the model', async () => {
    const sent = await send('denyOpenai', 'POST', '/openai_passthrough/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21', JSON.stringify({ messages: [] }), 'application/json');
    expect(sent.status, sent.text).toBe(403);
    expect(sent.text).toContain('openai/gpt-4o');
  });

  it('a GenAI body naming models/… (a cached content) is read without the prefix', async () => {
    const sent = await send('allowOpenai', 'POST', '/genai_passthrough/v1beta/cachedContents', JSON.stringify({ model: 'models/gemini-2.5-flash', contents: [] }), 'application/json');
    expect(sent.status, sent.text).toBe(403);
    expect(sent.text).toContain('gemini/gemini-2.5-flash');
  });
});

describe('a model that cannot be read, and calls that run none', () => {
  it('a body whose model cannot be read is refused under a model list, saying so, in the family\'s shape', async () => {
    const before = requestCount();
    const openai = await send('allowOpenai', 'POST', '/openai_passthrough/v1/chat/completions', 'model=gpt-4o', 'text/plain');
    expect(openai.status, openai.text).toBe(403);
    expect(JSON.parse(openai.text)).toMatchObject({ error: { code: 'policy_model_unreadable', type: 'permission_error' } });
    expect(openai.text).toMatch(/cannot read the model/);
    // Looks like JSON, is not: the body parser keeps it as bytes (declared as JSON, it would be a 400).
    const anthropic = await send('allowAnthropic', 'POST', '/anthropic_passthrough/v1/messages', '{"model": "claude-sonnet-4-5", broken', 'application/octet-stream');
    expect(anthropic.status, anthropic.text).toBe(403);
    expect(JSON.parse(anthropic.text)).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect(anthropic.text).toMatch(/cannot read the model/);
    expect(requestCount()).toBe(before);
  });

  it('a POST that names no model is refused under a model list (the provider would pick one)', async () => {
    const before = requestCount();
    const sent = await send('allowOpenai', 'POST', '/openai_passthrough/v1/moderations', JSON.stringify({ input: 'hello' }), 'application/json');
    expect(sent.status, sent.text).toBe(403);
    expect(sent.text).toMatch(/names no model/);
    expect(requestCount()).toBe(before);
  });

  it('without a model list, the same calls pass', async () => {
    const unreadable = await send('ok', 'POST', '/openai_passthrough/v1/chat/completions', 'model=gpt-4o', 'text/plain');
    expect(unreadable.status, unreadable.text).toBe(200);
    const unnamed = await send('denyOpenai', 'POST', '/openai_passthrough/v1/moderations', JSON.stringify({ input: 'hello' }), 'application/json');
    expect(unnamed.status, unnamed.text).toBe(200);
  });

  it('listing, retrieving and deleting run no model: they pass under a model list', async () => {
    for (const [method, path] of [['GET', '/openai_passthrough/v1/models'], ['GET', '/anthropic_passthrough/v1/models'], ['GET', '/genai_passthrough/v1beta/models'],
      ['GET', '/genai_passthrough/v1beta/models/gemini-2.5-flash'], ['DELETE', '/openai_passthrough/v1/files/file-1']] as const) {
      const sent = await send('allowAnthropic', method, path);
      expect(sent.status, `${method} ${path}: ${sent.text}`).toBe(200);
    }
  });

  it('a file upload runs no model: it passes under a model list', async () => {
    const form = new FormData();
    form.append('purpose', 'assistants');
    form.append('file', new Blob(['some notes'], { type: 'text/plain' }), 'notes.txt');
    const sent = await send('allowAnthropic', 'POST', '/openai_passthrough/v1/files', form);
    expect(sent.status, sent.text).toBe(200);
  });
});

describe('the record and usage by model', () => {
  it('each family\'s record names its model, provider-qualified, and gw usage --by model counts it', async () => {
    const ids: Array<[string | null, string]> = [];
    for (const [, call, model] of FAMILIES) ids.push([(await send('ok', call[0], call[1], call[2], 'application/json')).requestId, model]);
    // Without a list a form is not held: its model is noted as it passes.
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(4096, 1)], { type: 'audio/wav' }), 'a.wav');
    form.append('model', 'gpt-4o-transcribe');
    ids.push([(await send('ok', 'POST', '/openai_passthrough/v1/audio/transcriptions', form)).requestId, 'openai/gpt-4o-transcribe']);
    const shadow = await send('shadow', OPENAI_CHAT[0], OPENAI_CHAT[1], OPENAI_CHAT[2], 'application/json');
    let records: AuditLine[] = [];
    for (let tries = 0; tries < 50; tries += 1) {
      records = (await readAudit(gw.home)).filter((line) => line.kind === 'request');
      if ([...ids.map(([id]) => id), shadow.requestId].every((id) => records.some((line) => line.request_id === id))) break;
      await sleep(100);
    }
    for (const [id, model] of ids) expect(records.find((line) => line.request_id === id), model).toMatchObject({ model, route: expect.stringContaining('_passthrough') });
    // Shadow mode serves the call and records what it would have refused.
    expect(JSON.stringify(records.find((line) => line.request_id === shadow.requestId))).toContain('policy_shadow');
    const listed = await runGw(['usage', '--by', 'model', '--since', '1d', '--json'], { home: gw.home });
    const usage = JSON.parse(listed.stdout) as { rows: Array<{ group: string; calls: number }> };
    for (const [, model] of ids) expect(usage.rows.find((row) => row.group === model)?.calls, model).toBeGreaterThan(0);
  });
});
