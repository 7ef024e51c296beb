// Spend follows the bill (issue 36): a real `gw serve`, a provider of every streaming dialect on
// loopback that bills what the client never sees (hidden reasoning tokens, images it fetched by
// URL; hidden-billing-provider.ts), prices set with `gw prices set` and hard budgets. Every
// dialect, same-format and translated, × {hang-up before any output, mid-answer, after the
// finish but before the usage} × {reasoning model, media by URL}: each call's recorded cost
// covers the provider's whole bill and says where it came from (a cut call: its hold; a hang-up
// with the answer complete: the provider's own usage, read after it), so a hard budget counts
// at least what was billed; and a budget stops spend, whatever the client does. Before the fix
// such calls were charged the few tokens relayed, and the hold ignored hidden output and media.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGw, startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { auditRecord } from '../forwarding/support.js';
import { waitUntil } from '../helpers.js';
import { IMAGE_URL_PREFIX, REASONING_MARK, startHiddenBillingProvider, type Billed, type Dialect, type HiddenBillingProvider } from './hidden-billing-provider.js';

/** 1,000 USD per million tokens each way: 1,000,000 nano-USD a token. */
const NANOS_PER_TOKEN = 1_000_000;
const STOP_BUDGET_USD = 100;
const MODELS = ['openai/o-bill', 'anthropic/claude-bill', 'gemini/gemini-bill', 'bedrock/claude-bill'];

type Moment = 'before-output' | 'mid-answer' | 'after-finish';
type Kind = 'reasoning' | 'media';
interface Row { client: Dialect; model: string; translated: boolean }

const ROWS: Row[] = [
  { client: 'chat', model: 'openai/o-bill', translated: false },
  { client: 'responses', model: 'openai/o-bill', translated: false },
  { client: 'messages', model: 'anthropic/claude-bill', translated: false },
  { client: 'genai', model: 'gemini/gemini-bill', translated: false },
  { client: 'bedrock', model: 'bedrock/claude-bill', translated: false },
  { client: 'messages', model: 'openai/o-bill', translated: true },
  { client: 'chat', model: 'anthropic/claude-bill', translated: true },
];
const MOMENTS: Moment[] = ['before-output', 'mid-answer', 'after-finish'];
const KINDS: Kind[] = ['reasoning', 'media'];
const CASES = ROWS.flatMap((row) => MOMENTS.flatMap((moment) => KINDS.map((kind) => ({ row, moment, kind }))));

/** What the client reads as its answer's end in its own dialect (the usage may follow). */
const FINISH_MARK: Record<Dialect, string> = {
  chat: '"finish_reason":"', responses: 'response.output_text.done', messages: 'message_delta', genai: '"finishReason"', bedrock: 'messageStop',
};
/** Where the dialect sends its usage apart from (after) the finish: the hang-up in between is the one gw must read on for. */
const USAGE_AFTER_FINISH: ReadonlySet<Dialect> = new Set(['chat', 'responses', 'bedrock']);

let provider: HiddenBillingProvider;
let gw: GatewayProcess;
let stopKey: string;
let matrixKey: string;

beforeAll(async () => {
  provider = await startHiddenBillingProvider();
  const home = await makeHome('gw-cut-matrix-');
  const commands = [
    ...MODELS.map((model) => ['prices', 'set', model, '--input', '1000', '--output', '1000']),
    ['budgets', 'set', 'team:local', '--amount', '1000000', '--period', 'day'],
    ['teams', 'create', 'local'],
    ['teams', 'create', 'stop'],
    ['budgets', 'set', 'team:stop', '--amount', String(STOP_BUDGET_USD), '--period', 'day'],
  ];
  for (const args of commands) {
    const result = await runGw(args, { home });
    expect(result.code, result.stderr).toBe(0);
  }
  const keyOf = async (team: string) => {
    const made = await runGw(['keys', 'create', '--team', team, '--name', team], { home });
    const key = /sk-gw-\w+/.exec(made.stdout)?.[0] ?? '';
    expect(key, made.stderr).not.toBe('');
    return key;
  };
  matrixKey = await keyOf('local');
  stopKey = await keyOf('stop');
  gw = await startGatewayProcess({
    home,
    env: {
      OPENAI_API_KEY: 'sk-upstream', OPENAI_BASE_URL: `${provider.url}/v1`, ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: provider.url,
      GEMINI_API_KEY: 'upstream-gemini', GOOGLE_GEMINI_BASE_URL: provider.url, AWS_BEARER_TOKEN_BEDROCK: 'upstream-bedrock', BEDROCK_BASE_URL: provider.url,
      GW_LOG_LEVEL: 'warn',
    },
  });
}, 120_000);

afterAll(async () => {
  await gw?.stop('SIGTERM');
  await provider?.close();
});

function requestOf(row: Row, kind: Kind): { path: string; body: unknown } {
  const { client, model } = row;
  const text = kind === 'reasoning' ? `Please ${REASONING_MARK} about this, then answer.` : 'Describe these pictures.';
  const urls = kind === 'media' ? Array.from({ length: 20 }, (_, index) => `https://${IMAGE_URL_PREFIX}pic-${index}.png`) : [];
  const reasoning = kind === 'reasoning';
  switch (client) {
    case 'chat': return { path: '/v1/chat/completions', body: {
      model, stream: true, ...(reasoning ? { max_completion_tokens: 25_000, reasoning_effort: 'high' } : { max_tokens: 256 }),
      messages: [{ role: 'user', content: [{ type: 'text', text }, ...urls.map((url) => ({ type: 'image_url', image_url: { url } }))] }],
    } };
    case 'responses': return { path: '/v1/responses', body: {
      model, stream: true, ...(reasoning ? { max_output_tokens: 25_000, reasoning: { effort: 'high' } } : { max_output_tokens: 256 }),
      input: [{ role: 'user', content: [{ type: 'input_text', text }, ...urls.map((url) => ({ type: 'input_image', image_url: url }))] }],
    } };
    case 'messages': return { path: '/v1/messages', body: {
      model, stream: true, ...(reasoning ? { max_tokens: 25_000, thinking: { type: 'enabled', budget_tokens: 24_000 } } : { max_tokens: 256 }),
      messages: [{ role: 'user', content: [{ type: 'text', text }, ...urls.map((url) => ({ type: 'image', source: { type: 'url', url } }))] }],
    } };
    case 'genai': return { path: `/v1beta/models/${model}:streamGenerateContent?alt=sse`, body: {
      contents: [{ role: 'user', parts: [{ text }, ...urls.map((url) => ({ fileData: { mimeType: 'image/png', fileUri: url } }))] }],
      // GenAI bills thoughts outside maxOutputTokens: the hold adds the thinking budget to the cap.
      generationConfig: reasoning ? { maxOutputTokens: 5_000, thinkingConfig: { thinkingBudget: 20_000 } } : { maxOutputTokens: 256 },
    } };
    case 'bedrock': return { path: `/litellm/bedrock/model/${encodeURIComponent(model)}/converse-stream`, body: {
      messages: [{ role: 'user', content: [{ text }, ...urls.map((_url, index) => ({ image: { format: 'png', source: { s3Location: { uri: `s3://${IMAGE_URL_PREFIX}pic-${index}.png` } } } }))] }],
      inferenceConfig: { maxTokens: reasoning ? 25_000 : 256 },
      ...(reasoning ? { additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 24_000 } } } : {}),
    } };
  }
}

/** Sends the call and hangs up at the moment; returns its status, request id and what it read. */
async function callAndHangUp(row: Row, kind: Kind, moment: Moment, key: string): Promise<{ status: number; id: string; text: string }> {
  const { path, body } = requestOf(row, kind);
  const controller = new AbortController();
  const response = await fetch(`${gw.url}${path}`, {
    method: 'POST', signal: controller.signal, body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-api-key': key, 'x-goog-api-key': key, 'anthropic-version': '2023-06-01' },
  });
  const id = response.headers.get('x-request-id') ?? '';
  if (response.status !== 200 || response.body === null) return { status: response.status, id, text: await response.text() };
  if (moment === 'before-output') {
    controller.abort();
    return { status: 200, id, text: '' };
  }
  const mark = moment === 'mid-answer' ? 'tok5' : FINISH_MARK[row.client];
  let text = '';
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('latin1');
      if (text.includes(mark)) break;
    }
  } finally {
    controller.abort();
  }
  return { status: 200, id, text };
}

type Cost = { nano_usd?: number; source?: string };
const billOf = (billed: Billed) => (billed.input + billed.output) * NANOS_PER_TOKEN;

describe('every dialect × moment of hang-up × hidden billing: the record covers the bill and says where its cost came from', () => {
  it.each(CASES.map((entry) => [`${entry.row.client} → ${entry.row.model}${entry.row.translated ? ' (translated)' : ''}`, entry.moment, entry.kind, entry] as const))('%s, %s, %s', async (_name, moment, kind, { row }) => {
    const before = provider.billed.length;
    const sent = await callAndHangUp(row, kind, moment, matrixKey);
    expect(sent.status, sent.text).toBe(200);
    const record = await auditRecord(gw.home, sent.id, 15_000);
    const billed = provider.billed[before];
    expect(billed, 'the provider got the call').toBeDefined();
    if (!billed) return;
    const cost = record.cost as Cost;
    expect(cost.nano_usd, 'recorded cost ≥ the provider\'s bill').toBeGreaterThanOrEqual(billOf(billed));
    if (moment === 'after-finish') {
      // The answer was complete: gw read the provider's own usage, hidden reasoning included.
      expect(cost.nano_usd).toBe(billOf(billed));
      expect(['usage', 'usage_after_hangup']).toContain(cost.source);
      if (!row.translated && USAGE_AFTER_FINISH.has(row.client)) expect(cost.source).toBe('usage_after_hangup');
    } else {
      // Cut mid-answer (or before it): the provider is stopped and the call charged its hold.
      expect(cost.source).toBe('hold');
      await waitUntil(() => billed.aborted, { timeoutMs: 5_000, what: 'the provider\'s stream stopped' });
    }
  }, 30_000);
});

describe('a hard budget stops spend, whatever the client does', () => {
  it(`hang-ups of every kind against a $${STOP_BUDGET_USD} budget: refused before the provider's bills pass it`, async () => {
    const admitted: Billed[] = [];
    let refusal = '';
    for (let index = 0; index < 12 && refusal === ''; index += 1) {
      const { row, moment, kind } = CASES[(index * 5) % CASES.length]!;
      const before = provider.billed.length;
      const sent = await callAndHangUp(row, kind, moment, stopKey);
      if (sent.status === 402) refusal = sent.text;
      else {
        expect(sent.status, sent.text).toBe(200);
        // The next call is admitted against this one's settled cost.
        await auditRecord(gw.home, sent.id, 15_000);
        const billed = provider.billed[before];
        if (billed) admitted.push(billed);
      }
    }
    expect(refusal, `no refusal after ${admitted.length} calls`).toContain('team:stop');
    expect(admitted.length).toBeGreaterThan(0);
    const billedNanos = admitted.reduce((sum, billed) => sum + billOf(billed), 0);
    expect(billedNanos).toBeLessThanOrEqual(STOP_BUDGET_USD * 1e9);
  }, 120_000);
});
