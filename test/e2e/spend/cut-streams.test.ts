// Budgets hold against clients that hang up (issue 26): a real `gw serve`, a provider-shaped
// streaming server on loopback that bills as OpenAI does (billing-provider.ts), a price set with
// `gw prices set` and a hard budget with `gw budgets set`. Clients hang up at every moment of a
// stream (before the first byte, mid-stream, after finish_reason, before the usage chunk); the
// provider cuts one stream itself, and gw's idle time-out cuts one that went silent. Each call's recorded spend is at least what the provider
// bills for what was relayed (the input sent, the output handed to the client), flagged as
// estimated; and the budget refuses once spent, after no more hang-ups than the budget over the
// smallest call's cost (before the fix, each such call settled at $0 and the budget never filled).
import { countTokens } from 'gpt-tokenizer';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { readAudit, sleep, waitUntil, type AuditLine } from '../helpers.js';
import { startBillingProvider, type BillingProvider, type StreamPlan } from './billing-provider.js';

const UPSTREAM_KEY = 'sk-proj-billing-upstream-0001';
/** 1,000 USD per million tokens each way: 1,000,000 nano-USD a token, so a few calls fill a budget. */
const NANOS_PER_TOKEN = 1_000_000;
const BUDGET_USD = 0.5;

let gw: GatewayProcess | undefined;
let provider: BillingProvider | undefined;
afterEach(async () => {
  await gw?.stop('SIGTERM');
  await provider?.close();
  gw = undefined;
  provider = undefined;
});

async function start(budgetUsd: number): Promise<{ gw: GatewayProcess; provider: BillingProvider }> {
  provider = await startBillingProvider();
  const home = await makeHome('gw-cut-');
  for (const args of [['prices', 'set', 'openai/gpt-4o', '--input', '1000', '--output', '1000'], ['budgets', 'set', 'team:local', '--amount', String(budgetUsd), '--period', 'day']]) {
    const result = await runGw(args, { home });
    expect(result.code, result.stderr).toBe(0);
  }
  // A provider silent for 3 s mid-stream is cut by gw (every other moment keeps it busier than that).
  gw = await startGatewayProcess({ home, env: { OPENAI_API_KEY: UPSTREAM_KEY, OPENAI_BASE_URL: `${provider.url}/v1`, GW_LOG_LEVEL: 'warn', GW_UPSTREAM_IDLE_TIMEOUT_MS: '3000' } });
  return { gw, provider };
}

/** One way a call ends early: the provider's plan, the client's request, and when the client hangs up. */
interface Moment {
  name: string;
  plan: StreamPlan;
  dialect: 'chat' | 'messages';
  includeUsage?: boolean;
  /** A JSON (non-streaming) call. */
  buffered?: boolean;
  /** Hang up once this is true of what the client has read (never: read to the end). */
  hangUpWhen: ((read: ReadSoFar) => boolean) | 'before-first-byte' | 'never';
}

interface ReadSoFar { deltas: number; finished: boolean }

/** A mid-stream hang-up's answer: 20 s at 25 ms a word, so the provider is still streaming when a starved client hangs up. */
const MID_STREAM_WORDS = 800;

const MOMENTS: Moment[] = [
  { name: 'before the first byte', plan: { holdHeaders: true }, dialect: 'chat', hangUpWhen: 'before-first-byte' },
  { name: 'a JSON call, before its answer', plan: { holdHeaders: true }, dialect: 'chat', buffered: true, hangUpWhen: 'before-first-byte' },
  { name: 'mid-stream', plan: { words: MID_STREAM_WORDS }, dialect: 'chat', hangUpWhen: (read) => read.deltas >= 5 },
  { name: 'after finish_reason (gw asked for the usage chunk)', plan: { holdUsage: true }, dialect: 'chat', hangUpWhen: (read) => read.finished },
  { name: 'before the usage chunk the client asked for', plan: { holdUsage: true }, dialect: 'chat', includeUsage: true, hangUpWhen: (read) => read.finished },
  { name: 'the provider cuts the stream', plan: { resetAfterChunks: 8 }, dialect: 'chat', hangUpWhen: 'never' },
  { name: 'gw\'s idle time-out cuts a silent stream', plan: { stallAfterChunks: 6 }, dialect: 'chat', hangUpWhen: 'never' },
  { name: 'mid-stream, translated (Anthropic client, OpenAI provider)', plan: { words: MID_STREAM_WORDS }, dialect: 'messages', hangUpWhen: (read) => read.deltas >= 5 },
];

/** Reads the stream as a client would, hanging up at the moment's point; returns the text it was handed, or the refusal status. */
async function callAndHangUp(gateway: GatewayProcess, key: string, billing: BillingProvider, moment: Moment, index: number): Promise<{ status: number; relayed: string }> {
  billing.plan(moment.plan);
  const before = billing.requests.length;
  const controller = new AbortController();
  const messages = [{ role: 'user', content: `Please count slowly, call ${index}, and say nothing else.` }];
  const body = moment.dialect === 'chat'
    ? { model: 'gpt-4o', stream: !moment.buffered, max_tokens: 200, messages, ...(moment.includeUsage ? { stream_options: { include_usage: true } } : {}) }
    : { model: 'openai/gpt-4o', stream: true, max_tokens: 200, messages };
  const pending = fetch(`${gateway.url}/v1/${moment.dialect === 'chat' ? 'chat/completions' : 'messages'}`, {
    method: 'POST', signal: controller.signal,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
  if (moment.hangUpWhen === 'before-first-byte') {
    const answered = await Promise.race([billing.received(before + 1).then(() => null), pending]);
    if (answered !== null) return { status: answered.status, relayed: '' };
    await sleep(100);
    controller.abort();
    await pending.catch(() => undefined);
    return { status: 499, relayed: '' };
  }
  const response = await pending;
  if (response.status !== 200) return { status: response.status, relayed: await response.text() };
  const read: ReadSoFar = { deltas: 0, finished: false };
  let relayed = '';
  let buffered = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      const frames = buffered.split('\n\n');
      buffered = frames.pop() ?? '';
      for (const frame of frames) relayed += readFrame(frame, read);
      if (typeof moment.hangUpWhen === 'function' && moment.hangUpWhen(read)) {
        controller.abort();
        break;
      }
    }
  } catch { /* the abort, or the provider's cut reaching the client */ }
  return { status: 200, relayed };
}

/** The generated text one SSE frame carries (Chat's delta.content, Messages' text_delta), noting finish_reason. */
function readFrame(frame: string, read: ReadSoFar): string {
  const data = frame.split('\n').find((line) => line.startsWith('data:'))?.slice(5).trim();
  if (!data || data === '[DONE]') return '';
  const event = JSON.parse(data) as { choices?: Array<{ delta?: { content?: string }; finish_reason?: string | null }>; type?: string; delta?: { type?: string; text?: string } };
  const choice = event.choices?.[0];
  if (choice?.finish_reason) read.finished = true;
  const text = choice?.delta?.content ?? (event.type === 'content_block_delta' && event.delta?.type === 'text_delta' ? event.delta.text : undefined);
  if (text) read.deltas += 1;
  return text ?? '';
}

async function requestRecords(home: string): Promise<AuditLine[]> {
  return (await readAudit(home).catch(() => [])).filter((line) => line.kind === 'request');
}

async function recordNumber(home: string, count: number): Promise<AuditLine> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const records = await requestRecords(home);
    if (records.length >= count) return records[count - 1]!;
    if (Date.now() > deadline) throw new Error(`fewer than ${count} request records`);
    await sleep(50);
  }
}

type Cost = { nano_usd?: number; estimated?: boolean };
type Tokens = { input?: number; output?: number };

describe('a stream cut at any moment is charged what it relayed', () => {
  it('every moment: spend ≥ the provider bill for the input sent and the output relayed, flagged as estimated', async () => {
    const { gw: gateway, provider: billing } = await start(1_000);
    for (const [index, moment] of MOMENTS.entries()) {
      const { status, relayed } = await callAndHangUp(gateway, gateway.bootstrapKey!, billing, moment, index);
      expect(status, moment.name).not.toBe(402);
      const record = await recordNumber(gateway.home, index + 1);
      const billed = billing.requests[index]!;
      const relayedTokens = countTokens(relayed);
      const bill = (billed.promptTokens + relayedTokens) * NANOS_PER_TOKEN;
      const cost = record.cost as Cost | undefined;
      // gw may write the record before the provider sees its connection close: wait for the close (a mid-stream
      // answer streams for 20 s, so one that ran to its end would not pass for a cut).
      await waitUntil(() => billed.aborted, { timeoutMs: 10_000, what: `${moment.name}: the provider's connection to close` }).catch(() => undefined);
      expect(billed.aborted, `${moment.name}: the provider's answer was cut`).toBe(true);
      expect(cost?.nano_usd, `${moment.name}: recorded cost`).toBeGreaterThanOrEqual(bill);
      expect(cost?.estimated, moment.name).toBe(true);
      expect((record.tokens as Tokens).output ?? 0, moment.name).toBeGreaterThanOrEqual(relayedTokens);
      expect((record.tokens as Tokens).input ?? 0, moment.name).toBeGreaterThanOrEqual(billed.promptTokens);
      if (moment.hangUpWhen !== 'never') expect(record.outcome, moment.name).toContain('client_disconnected');
      if (moment.plan.stallAfterChunks !== undefined) expect(record.outcome, moment.name).toContain('GW_ERR_UPSTREAM_TIMEOUT');
      if (moment.hangUpWhen === 'before-first-byte') expect(relayed).toBe('');
      else expect(relayedTokens, moment.name).toBeGreaterThan(0);
    }
  }, 120_000);

  it('a stream read to the end is charged the provider\'s own usage, not an estimate', async () => {
    const { gw: gateway, provider: billing } = await start(1_000);
    const { relayed } = await callAndHangUp(gateway, gateway.bootstrapKey!, billing, { name: 'whole', plan: {}, dialect: 'chat', includeUsage: true, hangUpWhen: 'never' }, 0);
    const record = await recordNumber(gateway.home, 1);
    expect(record.tokens).toMatchObject({ input: billing.requests[0]!.promptTokens, output: countTokens(relayed) });
    expect((record.cost as Cost).nano_usd).toBe((billing.requests[0]!.promptTokens + countTokens(relayed)) * NANOS_PER_TOKEN);
    expect((record.cost as Cost).estimated).toBeUndefined();
  }, 60_000);
});

describe('a hard budget against clients that keep hanging up', () => {
  it('refuses once spent, after at most budget / the smallest call\'s cost hang-ups', async () => {
    const { gw: gateway, provider: billing } = await start(BUDGET_USD);
    // The smallest bill a hang-up can run up: the input alone (a hang-up before the first byte).
    const smallest = Math.min(...MOMENTS.map((_moment, index) => {
      const messages = [{ role: 'user', content: `Please count slowly, call ${index}, and say nothing else.` }];
      return (messages.reduce((sum, message) => sum + countTokens(`${message.role}${message.content}`) + 3, 0) + 3) * NANOS_PER_TOKEN;
    }));
    const bound = Math.floor((BUDGET_USD * 1e9) / smallest);
    let admitted = 0;
    let refusal = '';
    for (let index = 0; index <= bound + 1 && refusal === ''; index += 1) {
      const moment = MOMENTS[index % MOMENTS.length]!;
      const { status, relayed } = await callAndHangUp(gateway, gateway.bootstrapKey!, billing, moment, index);
      if (status === 402) {
        refusal = relayed;
        break;
      }
      admitted += 1;
      // The next call is admitted against this one's settled cost, as a client that hangs up and retries would be.
      await recordNumber(gateway.home, index + 1);
      await sleep(50);
    }
    expect(refusal, `no refusal after ${admitted} hang-ups (bound ${bound})`).toContain('team:local');
    expect(admitted).toBeGreaterThan(0);
    expect(admitted).toBeLessThanOrEqual(bound);
    // Every admitted call's recorded spend covers what its provider billed for what was relayed.
    const records = (await requestRecords(gateway.home)).filter((record) => record.status !== 402);
    expect(records).toHaveLength(admitted);
    const spent = records.reduce((sum, record) => sum + ((record.cost as Cost | undefined)?.nano_usd ?? 0), 0);
    const floor = billing.requests.reduce((sum, request) => sum + request.promptTokens * NANOS_PER_TOKEN, 0);
    expect(spent).toBeGreaterThanOrEqual(floor);
    expect(billing.requests).toHaveLength(admitted);
  }, 180_000);
});
