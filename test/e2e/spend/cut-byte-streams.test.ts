// A stream gw relays as bytes, unread (Gemini's streamGenerateContent without alt=sse: one JSON
// array written piece by piece), cut by the client mid-array: with a budget in force it is
// charged the prompt the provider reported in the records relayed and the text they carried,
// flagged as estimated (before: no usage was read from such a stream at all, cut or not, and it
// settled at $0). One read to the end is charged the usage its last record reported, exactly.
import { countTokens } from 'gpt-tokenizer';
import { afterEach, expect, it } from 'vitest';
import { runGwSetup as runGw } from '../../support/gateway-process.js';
import { jsonArrayElements } from '../../../src/pipeline/relayed-output.js';
import { auditRecordWhere, startRig, type Rig } from '../forwarding/support.js';

const NANOS_PER_TOKEN = 1_000_000;
let rig: Rig | undefined;
afterEach(async () => { await rig?.close(); rig = undefined; });

async function pricedHome(home: string): Promise<void> {
  for (const args of [['prices', 'set', 'gemini/gemini-cut', '--input', '1000', '--output', '1000'], ['budgets', 'set', 'team:local', '--amount', '1000', '--period', 'day']]) {
    const result = await runGw(args, { home });
    expect(result.code, result.stderr).toBe(0);
  }
}

interface GenaiRecord { candidates?: Array<{ content?: { parts?: Array<{ text?: string }> } }>; usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number } }

/** Streams the JSON array, hanging up once `records` complete records arrived (or reading it all); returns the records read. */
async function streamArray(current: Rig, records: number | 'all'): Promise<GenaiRecord[]> {
  const controller = new AbortController();
  const response = await fetch(`${current.gw.url}/genai/v1beta/models/gemini-cut:streamGenerateContent`, {
    method: 'POST', signal: controller.signal,
    headers: { 'x-goog-api-key': current.key, 'content-type': 'application/json' },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'one two three four five six seven eight nine ten eleven twelve' }] }] }),
  });
  expect(response.status).toBe(200);
  let text = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (records !== 'all' && jsonArrayElements(text).length >= records) {
        controller.abort();
        break;
      }
    }
  } catch { /* the abort */ }
  return jsonArrayElements(text).map((element) => JSON.parse(element) as GenaiRecord);
}

const textOf = (records: GenaiRecord[]) => records.map((record) => record.candidates?.[0]?.content?.parts?.map((part) => part.text ?? '').join('') ?? '').join('');

it('a Gemini JSON-array stream cut mid-array is charged the prompt reported and the text relayed; one read whole, its own usage', async () => {
  rig = await startRig({ eventDelayMs: 60, prepareHome: pricedHome });
  const cut = await streamArray(rig, 3);
  const record = await auditRecordWhere(rig.gw.home, (line) => line.status === 499);
  const prompt = cut[0]!.usageMetadata!.promptTokenCount!;
  const relayedTokens = countTokens(textOf(cut));
  expect(record.tokens).toMatchObject({ input: prompt });
  expect((record.tokens as { output?: number }).output).toBeGreaterThanOrEqual(relayedTokens);
  expect(record.cost).toMatchObject({ estimated: true });
  expect((record.cost as { nano_usd: number }).nano_usd).toBeGreaterThanOrEqual((prompt + relayedTokens) * NANOS_PER_TOKEN);

  const whole = await streamArray(rig, 'all');
  const last = whole.at(-1)!.usageMetadata!;
  const complete = await auditRecordWhere(rig.gw.home, (line) => line.status === 200);
  expect(complete.tokens).toMatchObject({ input: last.promptTokenCount, output: last.candidatesTokenCount });
  expect((complete.cost as { estimated?: boolean }).estimated).toBeUndefined();
}, 60_000);
