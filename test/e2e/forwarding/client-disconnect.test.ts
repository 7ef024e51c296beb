// A client that goes away cancels the provider call, at every moment: before the
// provider sent headers, while waiting for the first token, mid-stream, and for
// non-streaming calls (while gw reads the JSON body). Each SDK aborts with an
// AbortController; the fake provider must see its connection closed within ~2 s
// and the audit trail records status 499 / client_disconnected.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeProvider, RecordedRequest } from '../../support/fake-providers/index.js';
import { sleep } from '../helpers.js';
import { auditRecordWhere, startRig, stopAndVerify, type Rig } from './support.js';

let rig: Rig;
let openai: OpenAI;
let anthropic: Anthropic;
let genai: GoogleGenAI;

beforeAll(async () => {
  rig = await startRig({ eventDelayMs: 100 });
  openai = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: rig.key, baseURL: rig.gw.url, maxRetries: 0 });
  genai = new GoogleGenAI({ apiKey: rig.key, httpOptions: { baseUrl: `${rig.gw.url}/genai` } });
}, 30_000);

afterAll(async () => { await rig?.close(); });

/** The next request the fake receives. */
async function nextRequest(fake: FakeProvider, before: number): Promise<RecordedRequest> {
  const requests = await fake.waitForRequests(before + 1, 5_000);
  return requests[before]!;
}

/** After the client aborted: the provider connection closes within 2 s, unfinished, and the audit says 499. */
async function expectUpstreamCancelled(fake: FakeProvider, request: RecordedRequest, abortedAt: number, model: string): Promise<void> {
  const closedAt = await fake.waitForClose(request, 2_000);
  expect(closedAt - abortedAt).toBeLessThan(2_000);
  expect(request.aborted).toBe(true);
  const audit = await auditRecordWhere(rig.gw.home, (line) => line.model === model);
  expect(audit).toMatchObject({ status: 499, outcome: expect.arrayContaining(['client_disconnected']) });
  expect(audit.provider).toBe(fake === rig.openai ? 'openai' : fake === rig.anthropic ? 'anthropic' : 'gemini');
}

describe('before the provider sent headers', () => {
  it('OpenAI SDK, streaming call', async () => {
    const model = 'openai/gpt-4o-before-headers';
    rig.openai.setBehaviour({ hangBeforeHeaders: true }, { times: 1 });
    const before = rig.openai.requests.length;
    const controller = new AbortController();
    const pending = openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'x' }] }, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    const request = await nextRequest(rig.openai, before);
    await sleep(100);
    const abortedAt = Date.now();
    controller.abort();
    expect(await pending).toBeInstanceOf(OpenAI.APIUserAbortError);
    await expectUpstreamCancelled(rig.openai, request, abortedAt, model);
  });
});

describe('while waiting for the first token', () => {
  it('Anthropic SDK: the provider sent its headers, then nothing', async () => {
    const model = 'anthropic/claude-first-token';
    rig.anthropic.setBehaviour({ hangAfterEvents: 0 }, { times: 1 });
    const before = rig.anthropic.requests.length;
    const controller = new AbortController();
    const events: string[] = [];
    const pending = (async () => {
      const stream = await anthropic.messages.create({ model, max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'x' }] }, { signal: controller.signal });
      for await (const event of stream) events.push(event.type);
    })().catch((caught: unknown) => caught);
    const request = await nextRequest(rig.anthropic, before);
    await sleep(300);
    const abortedAt = Date.now();
    controller.abort();
    // Depending on whether gw had passed the headers on, the SDK rejects or ends the stream quietly.
    const outcome = await pending;
    if (outcome !== undefined) expect(outcome).toBeInstanceOf(Anthropic.APIUserAbortError);
    expect(events).toEqual([]);
    await expectUpstreamCancelled(rig.anthropic, request, abortedAt, model);
  });
});

describe('mid-stream', () => {
  it('OpenAI SDK: abort after two chunks', async () => {
    const model = 'openai/gpt-4o-mid-stream';
    const before = rig.openai.requests.length;
    const controller = new AbortController();
    const stream = await openai.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'one two three four five six seven' }] }, { signal: controller.signal });
    const request = await nextRequest(rig.openai, before);
    let seen = 0;
    let abortedAt = 0;
    // The SDK ends the iteration quietly (or with an abort error) once its signal fires.
    const outcome = await (async () => {
      for await (const _chunk of stream) {
        seen += 1;
        if (seen === 2) { abortedAt = Date.now(); controller.abort(); }
      }
    })().catch((caught: unknown) => caught);
    if (outcome !== undefined) expect(outcome).toBeInstanceOf(OpenAI.APIUserAbortError);
    expect(seen).toBe(2);
    await expectUpstreamCancelled(rig.openai, request, abortedAt, model);
  });

  it('GenAI SDK: abort after the first record', async () => {
    const model = 'gemini/gemini-mid-stream';
    const before = rig.gemini.requests.length;
    const controller = new AbortController();
    const stream = await genai.models.generateContentStream({ model, contents: 'one two three four five six seven', config: { abortSignal: controller.signal } });
    const request = await nextRequest(rig.gemini, before);
    let abortedAt = 0;
    const texts: string[] = [];
    await (async () => {
      for await (const chunk of stream) {
        texts.push(chunk.text ?? '');
        if (texts.length === 1) { abortedAt = Date.now(); controller.abort(); }
      }
    })().catch((caught: unknown) => caught);
    expect(texts.length).toBe(1);
    expect(abortedAt).toBeGreaterThan(0);
    await expectUpstreamCancelled(rig.gemini, request, abortedAt, model);
  });
});

describe('the audit record of a stream cut short', () => {
  it('keeps the bytes already sent and the usage already seen', async () => {
    // Both streams above delivered events before the client left; Gemini's first
    // record carries usageMetadata.promptTokenCount.
    const openaiRecord = await auditRecordWhere(rig.gw.home, (line) => line.model === 'openai/gpt-4o-mid-stream');
    const geminiRecord = await auditRecordWhere(rig.gw.home, (line) => line.model === 'gemini/gemini-mid-stream');
    expect(openaiRecord.bytes_out).toBeGreaterThan(0);
    expect(geminiRecord.bytes_out).toBeGreaterThan(0);
    expect(geminiRecord.tokens).toMatchObject({ input: expect.any(Number) });
  });
});

describe('non-streaming calls', () => {
  it('OpenAI SDK: the provider sent headers and gw is still reading the JSON body', async () => {
    const model = 'openai/gpt-4o-json-body';
    rig.openai.setBehaviour({ hangAfterEvents: 0 }, { times: 1 });
    const before = rig.openai.requests.length;
    const controller = new AbortController();
    const pending = openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] }, { signal: controller.signal }).catch((caught: unknown) => caught);
    const request = await nextRequest(rig.openai, before);
    await sleep(200);
    const abortedAt = Date.now();
    controller.abort();
    expect(await pending).toBeInstanceOf(OpenAI.APIUserAbortError);
    await expectUpstreamCancelled(rig.openai, request, abortedAt, model);
  });

  it('Anthropic SDK: before the provider answered', async () => {
    const model = 'anthropic/claude-json-before-headers';
    rig.anthropic.setBehaviour({ hangBeforeHeaders: true }, { times: 1 });
    const before = rig.anthropic.requests.length;
    const controller = new AbortController();
    const pending = anthropic.messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'x' }] }, { signal: controller.signal }).catch((caught: unknown) => caught);
    const request = await nextRequest(rig.anthropic, before);
    await sleep(200);
    const abortedAt = Date.now();
    controller.abort();
    expect(await pending).toBeInstanceOf(Anthropic.APIUserAbortError);
    await expectUpstreamCancelled(rig.anthropic, request, abortedAt, model);
  });

  it('GenAI SDK: generateContent before the provider answered', async () => {
    const model = 'gemini/gemini-json-before-headers';
    rig.gemini.setBehaviour({ hangBeforeHeaders: true }, { times: 1 });
    const before = rig.gemini.requests.length;
    const controller = new AbortController();
    const pending = genai.models.generateContent({ model, contents: 'x', config: { abortSignal: controller.signal } }).catch((caught: unknown) => caught);
    const request = await nextRequest(rig.gemini, before);
    await sleep(200);
    const abortedAt = Date.now();
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await expectUpstreamCancelled(rig.gemini, request, abortedAt, model);
  });
});

describe('audit trail', () => {
  it('gw stops cleanly and gw audit verify exits 0', async () => { await stopAndVerify(rig); }, 20_000);
});
