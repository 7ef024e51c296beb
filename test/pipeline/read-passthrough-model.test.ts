// The models a passthrough call names, read from its path and its body in its provider's own
// words; a multipart form's model read before anything is forwarded, its bytes replayed whole;
// a batch input file's models read line by line as the upload passes.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { evaluateModelAccess } from '../../src/policy/evaluate-policy.js';
import { tapBatchFile } from '../../src/pipeline/plan/read-batch-file.js';
import { FORM_PREFIX_BYTES, readFormModel, tapFormModel } from '../../src/pipeline/plan/read-form-model.js';
import { readBodyModels, readPathModel, runsNoModel } from '../../src/pipeline/plan/read-passthrough-model.js';

describe('readPathModel', () => {
  it.each([
    ['/v1beta/models/gemini-2.5-flash:generateContent', 'gemini-2.5-flash'],
    ['/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', 'gemini-2.5-flash'],
    ['/v1beta/tunedModels/my-tune:generateContent', 'my-tune'],
    ['/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse', 'anthropic.claude-3-haiku-20240307-v1:0'],
    ['/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21', 'gpt-4o'],
    ['/v1beta/models/gemini-2.5-flash', null],
    ['/v1/models', null],
    ['/v1/chat/completions', null],
  ])('%s → %s', (path, model) => {
    expect(readPathModel(path)).toBe(model);
  });
});

describe('readBodyModels', () => {
  it('a top-level model, GenAI\'s models/ prefix dropped', () => {
    expect(readBodyModels({ model: 'gpt-4o' })).toEqual({ models: ['gpt-4o'], unreadable: null });
    expect(readBodyModels({ model: 'models/gemini-2.5-flash' })).toEqual({ models: ['gemini-2.5-flash'], unreadable: null });
  });

  it('a realtime session\'s model', () => {
    expect(readBodyModels({ session: { type: 'realtime', model: 'gpt-realtime' } })).toEqual({ models: ['gpt-realtime'], unreadable: null });
  });

  it('each request of an Anthropic message batch', () => {
    const body = { requests: [{ custom_id: 'a', params: { model: 'claude-a' } }, { custom_id: 'b', params: { model: 'claude-b' } }] };
    expect(readBodyModels(body)).toEqual({ models: ['claude-a', 'claude-b'], unreadable: null });
    expect(readBodyModels({ requests: [{ params: { model: 7 } }] }).unreadable).toMatch(/requests\[0\]\.params\.model/);
  });

  it('no body, and a JSON body without a model, name none', () => {
    expect(readBodyModels(undefined)).toEqual({ models: [], unreadable: null });
    expect(readBodyModels(Buffer.alloc(0))).toEqual({ models: [], unreadable: null });
    expect(readBodyModels({ input: 'x' })).toEqual({ models: [], unreadable: null });
  });

  it('bytes that are not JSON, a model that is not a string, a stream: unreadable', () => {
    expect(readBodyModels(Buffer.from('model=gpt-4o')).unreadable).toMatch(/not JSON/);
    expect(readBodyModels({ model: ['gpt-4o'] }).unreadable).toMatch(/not a non-empty string/);
    expect(readBodyModels({ model: '' }).unreadable).toMatch(/not a non-empty string/);
    expect(readBodyModels(Readable.from([Buffer.from('x')])).unreadable).toMatch(/too large/);
    expect(readBodyModels([{ model: 'a' }, 'b']).unreadable).toMatch(/other than JSON objects/);
  });
});

describe('runsNoModel', () => {
  it.each([
    ['GET', '/v1/models', true], ['DELETE', '/v1/files/f', true], ['POST', '/v1/files', true], ['POST', '/v1/uploads/u1/parts', true],
    ['POST', '/v1/batches/b1/cancel', true], ['POST', '/upload/v1beta/files', true],
    ['POST', '/v1/chat/completions', false], ['POST', '/v1/moderations', false], ['POST', '/v1/batches', false],
  ] as const)('%s %s → %s', (method, path, expected) => {
    expect(runsNoModel(method, path)).toBe(expected);
  });
});

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function formBytes(parts: Array<[name: string, value: string, filename?: string]>): { bytes: Buffer; type: string } {
  const boundary = 'gwboundary123';
  const text = parts.map(([name, value, filename]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"\r\nContent-Type: application/octet-stream` : ''}\r\n\r\n${value}\r\n`).join('') + `--${boundary}--\r\n`;
  return { bytes: Buffer.from(text), type: `multipart/form-data; boundary=${boundary}` };
}

/** The bytes in small chunks, one a tick, as a socket delivers them. */
function chunked(bytes: Buffer, size = 7): Readable {
  async function* pieces(): AsyncGenerator<Buffer> {
    for (let start = 0; start < bytes.length; start += size) {
      await new Promise((resolve) => setImmediate(resolve));
      yield bytes.subarray(start, start + size);
    }
  }
  return Readable.from(pieces(), { objectMode: false });
}

describe('readFormModel', () => {
  it('reads the model field before the file and replays every byte', async () => {
    const form = formBytes([['model', 'whisper-1'], ['file', 'x'.repeat(10_000), 'a.wav']]);
    const read = await readFormModel(chunked(form.bytes), form.type);
    expect(read).toMatchObject({ model: 'whisper-1', unreadable: null });
    expect((await collect(read.body)).equals(form.bytes)).toBe(true);
  });

  it('a model after the file (openai-node\'s order) is read too, the file held meanwhile', async () => {
    const form = formBytes([['file', 'abc'.repeat(5000), 'a.wav'], ['model', 'whisper-1']]);
    const read = await readFormModel(chunked(form.bytes, 1000), form.type);
    expect(read).toMatchObject({ model: 'whisper-1', unreadable: null });
    expect((await collect(read.body)).equals(form.bytes)).toBe(true);
  });

  it('tapFormModel notes the model as the form passes, every byte forwarded', async () => {
    const form = formBytes([['file', 'abc'.repeat(5000), 'a.wav'], ['model', 'whisper-1']]);
    const seen: string[] = [];
    const body = tapFormModel(chunked(form.bytes, 1000), form.type, (model) => seen.push(model));
    expect((await collect(body)).equals(form.bytes)).toBe(true);
    expect(seen).toEqual(['whisper-1']);
  });

  it('a form without any model names none; one without a boundary is unreadable', async () => {
    const form = formBytes([['purpose', 'batch']]);
    expect(await readFormModel(chunked(form.bytes), form.type)).toMatchObject({ model: null, unreadable: null });
    expect((await readFormModel(chunked(form.bytes), 'multipart/form-data')).unreadable).toMatch(/boundary/);
  });

  it('a source that closes before its end (the client went away) is not waited on', async () => {
    const source = new Readable({ read() {} });
    const reading = readFormModel(source, 'multipart/form-data; boundary=gwboundary123');
    source.push(Buffer.from('--gwboundary123\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nx'));
    source.destroy();
    expect((await reading).unreadable).toMatch(/cut|failed/);
  });

  it('holds at most its prefix limit while looking', async () => {
    const form = formBytes([['file', 'p'.repeat(FORM_PREFIX_BYTES + 1024 * 1024), 'big.wav'], ['model', 'late']]);
    const read = await readFormModel(chunked(form.bytes, 256 * 1024), form.type);
    expect(read.model).toBeNull();
    expect(read.unreadable).toMatch(/no model field in its first/);
    expect((await collect(read.body)).length).toBe(form.bytes.length);
  });
});

describe('tapBatchFile', () => {
  const line = (model: unknown) => `${JSON.stringify({ custom_id: 'x', method: 'POST', url: '/v1/chat/completions', body: { model, messages: [] } })}\n`;

  it('each distinct model with its first line, across chunk boundaries; the bytes unchanged', async () => {
    const form = formBytes([['purpose', 'batch'], ['file', line('gpt-4o-mini') + line('gpt-4o-mini') + line('gpt-4o'), 'b.jsonl']]);
    const tap = tapBatchFile(chunked(form.bytes, 5), form.type);
    expect((await collect(tap.body)).equals(form.bytes)).toBe(true);
    expect(tap.result()).toEqual({ models: [['gpt-4o-mini', 1], ['gpt-4o', 3]], unreadable: null });
  });

  it('a line that is not JSON or names no model makes the file unreadable, naming the line', async () => {
    for (const [content, why] of [[`${line('a')}oops\n`, 'line 2 is not JSON'], [line(null), 'line 1 names no model (body.model)']] as const) {
      const form = formBytes([['file', content, 'b.jsonl']]);
      const tap = tapBatchFile(chunked(form.bytes), form.type);
      await collect(tap.body);
      expect(tap.result()?.unreadable).toBe(why);
    }
  });

  it('a file that does not open as JSON is given up at once (nothing held)', async () => {
    const form = formBytes([['file', '%PDF-1.7 binary…'.repeat(1000), 'doc.pdf']]);
    const tap = tapBatchFile(chunked(form.bytes, 4096), form.type);
    expect((await collect(tap.body)).equals(form.bytes)).toBe(true);
    expect(tap.result()).toEqual({ models: [], unreadable: 'line 1 is not JSON' });
  });

  it('a file cut before its end vouches for nothing', async () => {
    const form = formBytes([['file', line('gpt-4o'), 'b.jsonl']]);
    const tap = tapBatchFile(chunked(form.bytes.subarray(0, form.bytes.length - 40)), form.type);
    await collect(tap.body);
    expect(tap.result()).toBeNull();
  });
});

describe('evaluateModelAccess with aliases', () => {
  const records = [{ scope: '*', deny_models: ['gpt-4o'] }, { scope: 'team:a', allow_models: ['openai/*'] }];

  it('a deny of the bare name refuses the qualified model; an allow of either admits', () => {
    expect(evaluateModelAccess(records, { model: 'openai/gpt-4o', modelAliases: ['gpt-4o'] }).map((refusal) => refusal.reason)).toEqual([
      'policy *: model "openai/gpt-4o" matches deny_models (gpt-4o)',
    ]);
    expect(evaluateModelAccess(records, { model: 'openai/gpt-4o-mini', modelAliases: ['gpt-4o-mini'] })).toEqual([]);
    expect(evaluateModelAccess([{ scope: '*', allow_models: ['gpt-4o-mini'] }], { model: 'openai/gpt-4o-mini', modelAliases: ['gpt-4o-mini'] })).toEqual([]);
    expect(evaluateModelAccess(records, { model: 'anthropic/claude', modelAliases: ['claude'] })[0]?.reason).toMatch(/not in allow_models/);
  });

  it('a call that names no model is refused by allow_models only', () => {
    expect(evaluateModelAccess([{ scope: '*', deny_models: ['x'] }], { model: null, unnamedModel: true })).toEqual([]);
    expect(evaluateModelAccess([{ scope: '*', allow_models: ['x'] }], { model: null, unnamedModel: true })[0]?.reason).toMatch(/names no model/);
  });
});
