// Output DLP on a streamed answer, in this process (the scan is pure CPU): a 1,000-token
// answer (text, then a tool call whose arguments arrive in 3-character deltas) read part by
// part and held, as gw does with output DLP on. Reports the microseconds it adds per event and
// per answer (median of many runs, after warm-up): same-format (the codec's output-part reader
// over the provider's events, bytes held as they are) and translated (the provider decoder's
// parts held before the client's encoder). With output DLP off none of this runs (scan-output.ts
// returns the stream as it is), so it costs nothing there.
// Run alone: `node bench/output-dlp.mjs` (after `npm run build`).
const dist = process.env.BENCH_DLP_DIST ?? new URL('../dist', import.meta.url).pathname;
const { resolveDlpSettings } = await import(`${dist}/dlp/dlp-config.js`);
const { createOutputPartScan } = await import(`${dist}/dlp/scan-output-parts.js`);
const { createStreamTextHold } = await import(`${dist}/dlp/scan-stream-text.js`);
const { codecFor } = await import(`${dist}/formats/codec-registry.js`);

const words = 'the function reads the file and returns its lines, one per entry, so the caller can diff them '.split(' ');
function chatEvents() {
  const chunk = (delta, finish = null) => ({ data: JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] }) });
  const events = [chunk({ role: 'assistant', content: '' })];
  for (let i = 0; i < 800; i += 1) events.push(chunk({ content: `${words[i % words.length]} ` }));
  events.push(chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'write_file', arguments: '' } }] }));
  const args = JSON.stringify({ path: 'src/lines.ts', body: words.join(' ').repeat(4) });
  for (let at = 0; at < args.length; at += 3) events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(at, at + 3) } }] }));
  events.push(chunk({}, 'tool_calls'), { data: '[DONE]' });
  return events;
}

function measure(label, run) {
  const times = [];
  for (let round = 0; round < 120; round += 1) {
    const started = process.hrtime.bigint();
    run();
    if (round >= 20) times.push(Number(process.hrtime.bigint() - started) / 1e3);
  }
  times.sort((left, right) => left - right);
  return { label, medianMicros: times[Math.floor(times.length / 2)] };
}

export function runOutputDlpBench() {
  const { rules } = resolveDlpSettings([], ['*']);
  const codec = codecFor('openai-chat');
  const events = chatEvents();
  const rows = [
    measure('same-format (reader + hold)', () => {
      const reader = codec.createOutputPartReader();
      const scan = createOutputPartScan(rules);
      for (const event of events) scan.push(event, reader.push(event));
      scan.end();
    }),
    measure('translated (hold over decoded parts)', () => {
      const decoder = codec.createStreamDecoder();
      const scan = createOutputPartScan(rules);
      for (const event of events) for (const part of decoder.push(event)) scan.push(part, [{ choice: 0, part }]);
      scan.end();
    }),
    // Before issue 36: one scanner over every string under a list of keys (its JSON.parse included).
    measure('one scanner over all text (the key-list scan)', () => {
      const hold = createStreamTextHold(rules);
      for (const event of events) {
        let text = '';
        try { const delta = JSON.parse(event.data).choices[0].delta; text = delta.content ?? delta.tool_calls?.[0].function.arguments ?? ''; } catch { /* [DONE] */ }
        hold.push(event, text);
      }
      hold.end();
    }),
    measure('decoder alone (what translation pays anyway)', () => {
      const decoder = codec.createStreamDecoder();
      for (const event of events) decoder.push(event);
    }),
  ];
  return rows.map((row) => ({ ...row, events: events.length, perEventMicros: row.medianMicros / events.length }));
}

export function formatOutputDlpRows(rows) {
  if (rows.length === 0) return '';
  const lines = rows.map((row) => `${row.label.padEnd(46)} ${row.medianMicros.toFixed(0).padStart(8)} µs/answer ${row.perEventMicros.toFixed(2).padStart(7)} µs/event`);
  return `\noutput DLP on a ${rows[0].events}-event streamed answer (medians):\n${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(formatOutputDlpRows(runOutputDlpBench()));
