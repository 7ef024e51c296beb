// What spend adds to one request, in this process (pure CPU, no I/O): pricing the call's usage
// (the price book's flat fast path, and calcPrice for a tiered model or 1-hour cache writes),
// and a hard budget's whole round (worst-case rates, estimate, reserve, settle) against the
// in-process counter. Reported as µs per call (median of rounds), to set beside gw's CPU per
// request in `npm run bench` (tens to hundreds of µs). Run alone: `node bench/spend.mjs`
// after `npm run build`; BENCH_SPEND_DIST=/other/dist measures another build.
const dist = process.env.BENCH_SPEND_DIST ?? new URL('../dist', import.meta.url).pathname;
const { createPriceBook } = await import(`${dist}/spend/price-book.js`);
const { createSpendServices } = await import(`${dist}/spend/spend-services.js`);
const { estimateWorstCase } = await import(`${dist}/spend/estimate-worst-case.js`);

const ROUNDS = 15;
const CALLS = 20_000;

function perCallMicros(run) {
  const rounds = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = process.hrtime.bigint();
    for (let call = 0; call < CALLS; call += 1) run(call);
    rounds.push(Number(process.hrtime.bigint() - started) / 1e3 / CALLS);
  }
  rounds.sort((left, right) => left - right);
  return rounds[Math.floor(rounds.length / 2)];
}

async function perCallMicrosAsync(run) {
  const rounds = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = process.hrtime.bigint();
    for (let call = 0; call < CALLS / 4; call += 1) await run(call);
    rounds.push(Number(process.hrtime.bigint() - started) / 1e3 / (CALLS / 4));
  }
  rounds.sort((left, right) => left - right);
  return rounds[Math.floor(rounds.length / 2)];
}

export async function runSpendBench() {
  const book = createPriceBook(() => []);
  // The bench's own call (gpt-4o-mini, with a cache hit), varied so nothing is constant-folded.
  const mini = { provider: 'openai', kind: 'openai', model: 'gpt-4o-mini' };
  const tokens = (call) => ({ input: 120 + (call % 50), output: 40 + (call % 7), cached_read: call % 3 === 0 ? 64 : 0, total: 160 });
  // Tiered by prompt size (the dataset's gemini-2.5-pro) and 1-hour cache writes: calcPrice.
  const tiered = { provider: 'gemini', kind: 'gemini', model: 'gemini-2.5-pro' };
  const sonnet = { provider: 'anthropic', kind: 'anthropic', model: 'claude-sonnet-4-20250514' };
  const rows = [];
  let sink = 0;
  rows.push({ case: 'price, flat model (gpt-4o-mini): fast path', micros: perCallMicros((call) => { sink += book.price(mini, tokens(call)).nano_usd ?? 0; }) });
  rows.push({ case: 'price, tiered model (gemini-2.5-pro): calcPrice', micros: perCallMicros((call) => { sink += book.price(tiered, tokens(call)).nano_usd ?? 0; }) });
  rows.push({ case: 'price, 1-hour cache writes (claude-sonnet-4): calcPrice', micros: perCallMicros((call) => { sink += book.price(sonnet, { ...tokens(call), cache_write: 100, cache_write_1h: 100 }).nano_usd ?? 0; }) });
  rows.push({ case: 'unknown model (cached lookup)', micros: perCallMicros((call) => { sink += book.price({ provider: 'ollama', kind: 'openai-compatible', preset: 'ollama', model: `llama3` }, tokens(call)).nano_usd ?? 0; }) });

  const spend = createSpendServices({ overrides: () => [], now: () => new Date() });
  const budgets = [{ scope: 'team:eng', amount_usd: 1e9, period: 'month', mode: 'hard' }];
  const body = { model: 'gpt-4o-mini', max_tokens: 256, messages: [{ role: 'user', content: 'x'.repeat(1200) }] };
  rows.push({
    case: 'hard budget round: rates, estimate, reserve, price, settle',
    micros: await perCallMicrosAsync(async (call) => {
      const rates = spend.prices.rates(mini);
      const worst = estimateWorstCase(rates, 1300, body);
      const admission = await spend.budgets.admit(budgets, { team: 'eng', keyId: 'vk_1', person: 'a@example.com' }, worst);
      await admission.settle(spend.prices.price(mini, tokens(call)).nano_usd ?? null);
    }),
  });
  if (sink < 0) throw new Error('unreachable');
  return rows;
}

export function formatSpendRows(rows) {
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((row) => row.case.length));
  return `\nspend per call on Node ${process.version} (µs, median of ${ROUNDS} rounds):\n${rows.map((row) => `  ${row.case.padEnd(width)}  ${row.micros.toFixed(2)}`).join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(formatSpendRows(await runSpendBench()));
