// DLP on a request shaped like Claude Code's: 24 tools with JSON-schema
// parameters, a long system prompt, and long tool results (whole source files),
// about 200 KB. Reports MB/s and the milliseconds a scan adds to one request
// (the median of many runs, after warm-up): cold (no text seen before), warm (the
// next turn of the same conversation: long texts found clean last time are
// remembered), with the PII rules set to redact, and with a few non-ASCII
// characters (em dashes, arrows: what real prompts carry, and what NFKC must see).
// Run alone: `node bench/dlp.mjs` (after `npm run build`). BENCH_DLP_DIST=/other/dist
// measures another build of src/dlp (a before/after comparison on the same load).
const dist = process.env.BENCH_DLP_DIST ?? new URL('../dist', import.meta.url).pathname;
const { resolveDlpSettings } = await import(`${dist}/dlp/dlp-config.js`);
const { scanRequestBody } = await import(`${dist}/dlp/scan-request.js`);

import { claudeCodeBody } from './lib/coding-agent-body.mjs';

function measure(label, records, warm, nonAscii = false) {
  const { rules, cache } = resolveDlpSettings(records, ['*']);
  const text = JSON.stringify(claudeCodeBody(nonAscii));
  const times = [];
  let counts = {};
  for (let run = 0; run < 300; run += 1) {
    // Parse outside the timing: gw parses the body anyway; the scan is what DLP adds.
    const body = JSON.parse(text);
    const started = process.hrtime.bigint();
    counts = scanRequestBody(body, rules, warm ? cache : undefined).counts;
    if (run >= 50) times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((left, right) => left - right);
  const median = times[Math.floor(times.length / 2)];
  const p99 = times[Math.floor(times.length * 0.99)];
  const bytes = Buffer.byteLength(text);
  return { label, bytes, median_ms: Number(median.toFixed(3)), p99_ms: Number(p99.toFixed(3)), mb_per_s: Number((bytes / 1e6 / (median / 1000)).toFixed(1)), counts };
}

export function runDlpBench() {
  return [
    measure('cold, defaults (secrets block, PII log)', [], false),
    measure('warm (the conversation seen last turn), defaults', [], true),
    measure('cold, PII rules redact', [{ scope: '*', actions: Object.fromEntries(['email', 'credit_card', 'iban', 'us_ssn', 'phone_number', 'github_token'].map((id) => [id, 'redact'])) }], false),
    measure('cold, a few non-ASCII characters (em dash, arrows)', [], false, true),
  ];
}

export function formatDlpRows(rows) {
  return rows.map((row) => `dlp ${row.label} on Node ${process.version}: ${(row.bytes / 1024).toFixed(0)} KB, median ${row.median_ms} ms added (p99 ${row.p99_ms} ms), ${row.mb_per_s} MB/s\n`).join('');
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(formatDlpRows(runDlpBench()));
