// Budgets hold realtime sessions as they hold calls (issue 26): a real `gw serve`, a realtime
// provider on loopback that bills as OpenAI documents (realtime-billing-provider.ts), a price
// set with `gw prices set` and a hard budget with `gw budgets set`. A client that hangs up while
// a response runs (before its response.done and its usage) is charged at least what the
// provider bills for what was relayed, flagged as estimated; and a client that keeps doing so is
// refused at the handshake once the budget is spent (before: no hold, no cost, never refused).
import { countTokens } from 'gpt-tokenizer';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { makeHome, runGwSetup as runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { readAudit, sleep, waitUntil, type AuditLine } from '../helpers.js';
import { AUDIO_CHUNK_BYTES, startRealtimeBillingProvider, type RealtimeBillingProvider } from './realtime-billing-provider.js';

const UPSTREAM_KEY = 'sk-proj-realtime-billing-0001';
/** Input dear, output cheap: a session's input is most of its bill, and one response's worst case (4,096 output tokens) is small. */
const INPUT_NANOS_PER_TOKEN = 10_000_000;
const OUTPUT_NANOS_PER_TOKEN = 10_000;
const BUDGET_USD = 2;

let gw: GatewayProcess | undefined;
let provider: RealtimeBillingProvider | undefined;
afterEach(async () => {
  await gw?.stop('SIGTERM');
  await provider?.close();
  gw = undefined;
  provider = undefined;
});

async function start(budgetUsd: number): Promise<{ gw: GatewayProcess; provider: RealtimeBillingProvider }> {
  provider = await startRealtimeBillingProvider(UPSTREAM_KEY);
  const home = await makeHome('gw-rt-cut-');
  for (const args of [['prices', 'set', 'openai/gpt-realtime', '--input', '10000', '--output', '10'], ['budgets', 'set', 'team:local', '--amount', String(budgetUsd), '--period', 'day']]) {
    const result = await runGw(args, { home });
    expect(result.code, result.stderr).toBe(0);
  }
  gw = await startGatewayProcess({ home, env: { OPENAI_API_KEY: UPSTREAM_KEY, OPENAI_BASE_URL: `${provider.url}/v1`, GW_LOG_LEVEL: 'warn' } });
  return { gw, provider };
}

interface Relayed { texts: string[]; audioBytes: number }

/**
 * One session: a text item, a second of audio, response.create; the client reads `deltas`
 * deltas of the response and hangs up (or reads to response.done). Resolves with what it was
 * handed, or the handshake's refusal status.
 */
function runSession(gateway: GatewayProcess, index: number, hangUpAfter: number | 'done'): Promise<{ status: number; relayed: Relayed }> {
  return new Promise((resolve, reject) => {
    const client = new WebSocket(`${gateway.url.replace('http', 'ws')}/v1/realtime?model=openai/gpt-realtime`, { headers: { authorization: `Bearer ${gateway.bootstrapKey}` } });
    const relayed: Relayed = { texts: [], audioBytes: 0 };
    client.once('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0, relayed }));
    client.once('error', (error) => { if (client.readyState !== client.CLOSED) reject(error); });
    client.once('open', () => {
      client.send(JSON.stringify({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `Session ${index}: count to twelve slowly, please, and spell each number out in full.` }] } }));
      client.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: Buffer.alloc(48_000, 2).toString('base64') }));
      client.send(JSON.stringify({ type: 'response.create' }));
    });
    client.on('message', (data) => {
      const event = JSON.parse(String(data)) as { type: string; delta?: string };
      if (event.type === 'response.output_text.delta') relayed.texts.push(event.delta ?? '');
      if (event.type === 'response.output_audio.delta') relayed.audioBytes += Buffer.from(event.delta ?? '', 'base64').length;
      const deltas = relayed.texts.length + Math.round(relayed.audioBytes / AUDIO_CHUNK_BYTES);
      if ((hangUpAfter === 'done' && event.type === 'response.done') || (typeof hangUpAfter === 'number' && deltas >= hangUpAfter)) client.close();
    });
    client.once('close', () => resolve({ status: 101, relayed }));
  });
}

/** What the provider bills for what the client was handed: the response's input, the text and audio relayed (a token per 50 ms spoken). */
function billFor(inputTokens: number, relayed: Relayed): number {
  const output = countTokens(relayed.texts.join('')) + Math.ceil((relayed.audioBytes / 48_000) * 20);
  return inputTokens * INPUT_NANOS_PER_TOKEN + output * OUTPUT_NANOS_PER_TOKEN;
}

async function closeRecords(home: string): Promise<AuditLine[]> {
  return (await readAudit(home).catch(() => [])).filter((line) => line.kind === 'realtime.close');
}

async function closeRecord(home: string, count: number): Promise<AuditLine> {
  await waitUntil(async () => (await closeRecords(home)).length >= count, { timeoutMs: 20_000, what: `${count} realtime.close records` });
  return (await closeRecords(home))[count - 1]!;
}

type Cost = { nano_usd?: number; estimated?: boolean };

describe('a realtime session cut while a response runs', () => {
  it('is charged at least the provider bill for the input and what was relayed, flagged as estimated', async () => {
    const { gw: gateway, provider: billing } = await start(1_000);
    billing.holdDone = true;
    const { status, relayed } = await runSession(gateway, 0, 7);
    expect(status).toBe(101);
    const record = await closeRecord(gateway.home, 1);
    const bill = billFor(billing.sessions[0]!.inputTokens, relayed);
    expect(relayed.texts.length).toBeGreaterThan(0);
    expect(relayed.audioBytes).toBeGreaterThan(0);
    expect((record.cost as Cost).nano_usd).toBeGreaterThanOrEqual(bill);
    expect((record.cost as Cost).estimated).toBe(true);
    expect(record.tokens).toMatchObject({ audio_input: expect.any(Number), audio_output: expect.any(Number) });
  }, 60_000);

  it('a session whose response finished is charged the provider\'s usage, not an estimate', async () => {
    const { gw: gateway, provider: billing } = await start(1_000);
    await runSession(gateway, 0, 'done');
    const record = await closeRecord(gateway.home, 1);
    const input = billing.sessions[0]!.inputTokens;
    expect(record.tokens).toMatchObject({ input });
    expect((record.cost as Cost).estimated).toBeUndefined();
    expect((record.cost as Cost).nano_usd).toBeGreaterThanOrEqual(input * INPUT_NANOS_PER_TOKEN);
  }, 60_000);
});

describe('a hard budget against clients that keep cutting sessions', () => {
  it('refuses the handshake once spent, within budget / the smallest session\'s bill (+1) sessions', async () => {
    const { gw: gateway, provider: billing } = await start(BUDGET_USD);
    billing.holdDone = true;
    const bills: number[] = [];
    let refusedWith = 0;
    for (let index = 0; index < 40 && refusedWith === 0; index += 1) {
      const { status, relayed } = await runSession(gateway, index, 3 + (index % 4));
      if (status !== 101) {
        refusedWith = status;
        break;
      }
      bills.push(billFor(billing.sessions[index]!.inputTokens, relayed));
      const record = await closeRecord(gateway.home, index + 1);
      expect((record.cost as Cost).nano_usd).toBeGreaterThanOrEqual(bills.at(-1)!);
      await sleep(50);
    }
    expect(refusedWith, `no refusal after ${bills.length} cut sessions`).toBe(402);
    const bound = Math.floor((BUDGET_USD * 1e9) / Math.min(...bills)) + 1;
    expect(bills.length).toBeGreaterThan(0);
    expect(bills.length).toBeLessThanOrEqual(bound);
    expect(billing.sessions).toHaveLength(bills.length);
    let refused: AuditLine | undefined;
    await waitUntil(async () => { refused = (await readAudit(gateway.home)).find((line) => line.kind === 'realtime.open' && line.status === 402); return refused !== undefined; }, { what: 'the refused handshake\'s record' });
    expect(refused?.outcome).toEqual(['GW_ERR_BUDGET_EXCEEDED']);
  }, 180_000);
});

describe('a hard budget against one long session', () => {
  it('charges each finished response as it comes and ends the session (1008, budget_exceeded) once one more does not fit', async () => {
    const { gw: gateway, provider: billing } = await start(BUDGET_USD);
    const client = new WebSocket(`${gateway.url.replace('http', 'ws')}/v1/realtime?model=openai/gpt-realtime`, { headers: { authorization: `Bearer ${gateway.bootstrapKey}` } });
    let responses = 0;
    let error: { code?: string; message?: string } | undefined;
    const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)));
    client.once('open', () => {
      client.send(JSON.stringify({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Keep counting, one response after another, for as long as I ask.' }] } }));
      client.send(JSON.stringify({ type: 'response.create' }));
    });
    client.on('message', (data) => {
      const event = JSON.parse(String(data)) as { type: string; error?: { code?: string; message?: string } };
      if (event.type === 'error') error = event.error;
      if (event.type !== 'response.done') return;
      responses += 1;
      // A client that never stops asking: 30 responses would cost about six times the budget.
      if (responses < 30) client.send(JSON.stringify({ type: 'response.create' }));
      else client.close();
    });
    expect(await closed).toBe(1008);
    expect(error?.code).toBe('budget_exceeded');
    expect(error?.message).toContain('team:local');
    const perResponse = billing.sessions[0]!.inputTokens * INPUT_NANOS_PER_TOKEN;
    expect(responses).toBeGreaterThan(0);
    expect(responses).toBeLessThan(30);
    const record = await closeRecord(gateway.home, 1);
    expect(record.outcome).toContain('GW_ERR_BUDGET_EXCEEDED');
    const spent = (record.cost as Cost).nano_usd!;
    // Overshoot: at most the response that spent it (and the one running when the session ended).
    expect(spent).toBeLessThanOrEqual(BUDGET_USD * 1e9 + 2 * perResponse);
    expect(spent).toBeGreaterThanOrEqual(responses * perResponse);
  }, 120_000);
});
