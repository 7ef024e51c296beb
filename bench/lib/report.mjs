// Turns the raw measurements of a bench run into medians over runs and one plain-text table.
// Added latency is paired per run (target minus direct-to-mock in the same run, then the median),
// so that a slow moment of the machine moves both sides of the difference.

export function median(values) {
  const sorted = values.filter((value) => typeof value === 'number' && Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** One row per scenario × connections × target, with medians over the runs. */
export function summarize(measurements, settings) {
  const rows = [];
  for (const scenario of settings.scenarios) {
    for (const connections of settings.connections) {
      const same = (item) => item.scenario === scenario && item.connections === connections;
      const direct = measurements.filter((item) => same(item) && item.target === 'direct' && item.result);
      for (const target of settings.targets) {
        const mine = measurements.filter((item) => same(item) && item.target === target);
        const measured = mine.filter((item) => item.result).map((item) => ({ ...item.result, run: item.run }));
        const skipped = mine.find((item) => item.skipped)?.skipped;
        const added = (pick) => median(measured.map((result) => {
          const baseline = direct.find((item) => item.run === result.run)?.result;
          return target === 'direct' || !baseline ? undefined : pick(result) - pick(baseline);
        }));
        rows.push({
          scenario, connections, target, runs: measured.length, skipped,
          requestsPerSecond: median(measured.map((result) => result.requestsPerSecond)),
          p50Ms: median(measured.map((result) => result.latencyMs.p50)),
          p99Ms: median(measured.map((result) => result.latencyMs.p99)),
          addedP50Ms: added((result) => result.latencyMs.p50),
          addedP99Ms: added((result) => result.latencyMs.p99),
          cpuMicrosPerRequest: target === 'direct' ? undefined : median(measured.map((result) => result.targetCpuMicrosPerRequest)),
          rssMb: maximum(measured.map((result) => result.targetMemory?.rssMb)),
          peakRssMb: maximum(measured.map((result) => result.targetMemory?.peakRssMb)),
          overheadHeaderP50Ms: median(measured.map((result) => result.overheadHeaderMs?.p50)),
          failed: measured.reduce((sum, result) => sum + result.failed, 0),
          firstFailure: measured.find((result) => result.firstFailure)?.firstFailure,
        });
      }
    }
  }
  return rows;
}

/**
 * summarize() once per Node that ran the proxies (settings.nodes), each row tagged with its Node. The mock alone
 * (`direct`) ran on the bench's own Node and is paired with every Node's rows; its row appears once.
 */
export function summarizeByNode(measurements, settings) {
  const nodes = settings.nodes ?? [{ version: settings.benchNode }];
  return nodes.flatMap((node, index) => summarize(measurements.filter((item) => item.target === 'direct' || item.node === node.version), settings)
    .filter((row) => row.target !== 'direct' || index === 0)
    .map((row) => ({ ...row, node: row.target === 'direct' ? settings.benchNode ?? node.version : node.version })));
}

/**
 * The project's targets (set 2026-11-27, from the last measurements): gw's CPU per request at most
 * this many times the bare proxy's, in the same run: small chat 2.5×, streams 1.5×, the 212 KB
 * coding-agent stream 3×. Scenarios without one print "-".
 */
const CPU_RATIO_TARGETS = { chat: 2.5, 'chat-stream': 1.5, 'messages-stream-translated': 1.5, 'messages-large-stream': 3 };

/** gw ÷ bare-proxy (and ÷ the fastify floor, when it ran) for CPU per request and p50, per scenario and load: the numbers to gate on. */
export function compareGwWithBare(rows) {
  const ratios = [];
  const find = (target, gw) => rows.find((row) => row.target === target && row.node === gw.node && row.scenario === gw.scenario && row.connections === gw.connections && row.runs > 0);
  for (const gw of rows.filter((row) => row.target === 'gw' && !row.skipped && row.runs > 0)) {
    const bare = find('bare-proxy', gw);
    if (!bare) continue;
    const floor = find('fastify-floor', gw);
    ratios.push({
      scenario: gw.scenario, connections: gw.connections, node: gw.node,
      bareCpuMicros: bare.cpuMicrosPerRequest, floorCpuMicros: floor?.cpuMicrosPerRequest, gwCpuMicros: gw.cpuMicrosPerRequest,
      cpuRatio: divide(gw.cpuMicrosPerRequest, bare.cpuMicrosPerRequest),
      floorCpuRatio: divide(gw.cpuMicrosPerRequest, floor?.cpuMicrosPerRequest),
      targetCpuRatio: CPU_RATIO_TARGETS[gw.scenario],
      p50Ratio: divide(gw.p50Ms, bare.p50Ms),
      addedP50Ratio: divide(gw.addedP50Ms, bare.addedP50Ms),
    });
  }
  return ratios;
}

/**
 * gw against gw-baseline (BENCH_BASELINE: another checkout), paired per run: each run's gw ÷ baseline for CPU per
 * request and p50, then the median over runs, beside each one's ratio to the bare proxy. The two ran back to back in
 * every run, so the machine's slow moments move both; a ratio across two separate invocations moves by more than
 * most changes do.
 */
export function compareWithBaseline(measurements, settings) {
  if (!settings.targets.includes('gw-baseline')) return [];
  const rows = [];
  for (const scenario of settings.scenarios) {
    for (const connections of settings.connections) {
      const cell = (target, run) => measurements.find((item) => item.scenario === scenario && item.connections === connections && item.target === target && item.run === run)?.result;
      const pairs = [];
      for (let run = 1; run <= settings.runs; run += 1) {
        const gw = cell('gw', run);
        const base = cell('gw-baseline', run);
        const bare = cell('bare-proxy', run);
        if (gw && base) pairs.push({ gw, base, bare });
      }
      if (pairs.length === 0) continue;
      rows.push({
        scenario, connections, runs: pairs.length,
        cpuRatio: median(pairs.map(({ gw, base }) => divide(gw.targetCpuMicrosPerRequest, base.targetCpuMicrosPerRequest))),
        p50Ratio: median(pairs.map(({ gw, base }) => divide(gw.latencyMs.p50, base.latencyMs.p50))),
        gwP50OverBare: median(pairs.map(({ gw, bare }) => divide(gw.latencyMs.p50, bare?.latencyMs.p50))),
        baseP50OverBare: median(pairs.map(({ base, bare }) => divide(base.latencyMs.p50, bare?.latencyMs.p50))),
        gwCpuOverBare: median(pairs.map(({ gw, bare }) => divide(gw.targetCpuMicrosPerRequest, bare?.targetCpuMicrosPerRequest))),
        baseCpuOverBare: median(pairs.map(({ base, bare }) => divide(base.targetCpuMicrosPerRequest, bare?.targetCpuMicrosPerRequest))),
      });
    }
  }
  return rows;
}

function formatBaseline(rows) {
  const header = ['gw vs baseline', 'conns', 'node', 'runs', 'CPU gw/base', 'p50 gw/base', 'CPU gw/bare', 'CPU base/bare', 'p50 gw/bare', 'p50 base/bare'];
  const table = rows.map((row) => [
    row.scenario, `c${row.connections}`, row.node ?? '-', String(row.runs), times(row.cpuRatio), times(row.p50Ratio),
    times(row.gwCpuOverBare), times(row.baseCpuOverBare), times(row.gwP50OverBare), times(row.baseP50OverBare),
  ]);
  return alignedLines(header, table, 3);
}

/** The ratios as one table: CPU µs per request of each proxy, gw over each, and the target. */
function formatRatios(ratios) {
  const header = ['CPU µs/req', 'conns', 'node', 'bare', 'floor', 'gw', 'gw/bare', 'gw/floor', 'target', 'p50 gw/bare'];
  const table = ratios.map((ratio) => [
    ratio.scenario, `c${ratio.connections}`, ratio.node ?? '-',
    format(ratio.bareCpuMicros, 0), format(ratio.floorCpuMicros, 0), format(ratio.gwCpuMicros, 0),
    times(ratio.cpuRatio), times(ratio.floorCpuRatio),
    ratio.targetCpuRatio === undefined ? '-' : `≤ ${format(ratio.targetCpuRatio, 1)}× ${ratio.cpuRatio <= ratio.targetCpuRatio ? 'met' : 'not met'}`,
    times(ratio.p50Ratio),
  ]);
  return alignedLines(header, table, 3);
}

/**
 * With two or more Nodes: one line per scenario and load, each Node's gw CPU per request and its ratios to that
 * Node's own bare proxy side by side (a ratio, not µs, is what compares across Nodes: each ran its own bare proxy).
 */
function formatNodesSideBySide(ratios, nodes) {
  if (nodes.length < 2) return [];
  const cells = [...new Set(ratios.map((ratio) => `${ratio.scenario}\u0000${ratio.connections}`))];
  const header = ['by Node', 'conns', ...nodes.flatMap((node) => [`gw µs ${node.version}`, `CPU gw/bare ${node.version}`, `p50 gw/bare ${node.version}`])];
  const table = cells.map((key) => {
    const [scenario, connections] = key.split('\u0000');
    const mine = (node) => ratios.find((ratio) => ratio.node === node.version && ratio.scenario === scenario && String(ratio.connections) === connections);
    return [scenario, `c${connections}`, ...nodes.flatMap((node) => {
      const ratio = mine(node);
      return [format(ratio?.gwCpuMicros, 0), times(ratio?.cpuRatio), times(ratio?.p50Ratio)];
    })];
  });
  return alignedLines(header, table, 2);
}

export function formatReport(rows, ratios, settings, noise, baseline = []) {
  const header = ['scenario', 'conns', 'node', 'target', 'req/s', 'p50 ms', 'p99 ms', '+p50 ms', '+p99 ms', 'CPU µs/req', 'RSS MB (peak)', 'x-gw-overhead p50', 'errors'];
  const table = rows.map((row) => {
    if (row.skipped) return [row.scenario, `c${row.connections}`, row.node ?? '-', row.target, `${row.target}: ${row.skipped}`];
    return [
      row.scenario, `c${row.connections}`, row.node ?? '-', row.target,
      format(row.requestsPerSecond, 0), format(row.p50Ms, 3), format(row.p99Ms, 3),
      signed(row.addedP50Ms), signed(row.addedP99Ms), format(row.cpuMicrosPerRequest, 0),
      row.rssMb === undefined ? '-' : `${format(row.rssMb, 0)} (${format(row.peakRssMb, 0)})`,
      row.overheadHeaderP50Ms === undefined ? '-' : `${format(row.overheadHeaderP50Ms, 3)} ms`,
      row.failed > 0 ? `${row.failed}: ${row.firstFailure?.slice(0, 60)}` : '0',
    ];
  });
  const out = [
    `gw bench: ${settings.runs} run(s) × ${settings.durationSeconds} s measured (+${settings.warmupSeconds} s warm-up) per cell; medians over runs; +p50/+p99 = target − direct, paired per run`,
    `node: the Node that ran each target (${(settings.nodes ?? []).map((node) => node.version).join(', ') || 'the bench\'s'}); the mock, the load generator and the figures below the tables ran on the bench's Node ${settings.benchNode ?? '(not recorded)'}`,
    '',
    ...alignedLines(header, table, 4),
    '',
  ];
  if (ratios.length > 0) out.push(...formatRatios(ratios), '');
  const sideBySide = formatNodesSideBySide(ratios, settings.nodes ?? []);
  if (sideBySide.length > 0) out.push(...sideBySide, '');
  if (baseline.length > 0) out.push(...formatBaseline(baseline), '');
  if (ratios.length === 0 && settings.targets.includes('gw') && settings.targets.includes('bare-proxy')) out.push('gw/bare: no ratio (gw answered no scenario with 2xx)');
  out.push(
    `machine: ${settings.cpuCount} CPUs, ${settings.pinning ? `target pinned to cpu ${settings.pinning.target}, mock + load generator to cpu ${settings.pinning.load}` : 'no pinning'}; ` +
      `busy outside the bench (median) ${format(noise.foreignBusyPercent, 1)}%, steal ${format(noise.stealPercent, 1)}%`,
  );
  if (noise.foreignBusyPercent > 25) out.push('warning: other work kept this machine busy during the measurements; compare ratios within this run only, and rerun when it is quiet');
  return `${out.join('\n')}\n`;
}

/** Header, a rule, and the rows; the first `leftColumns` are left-aligned. A row shorter than the header is a note after its first columns. */
function alignedLines(header, table, leftColumns) {
  const widths = header.map((title, column) => Math.max(title.length, ...table.filter((cells) => cells.length === header.length).map((cells) => String(cells[column]).length)));
  const line = (cells) => cells.length === header.length
    ? cells.map((cell, column) => (column < leftColumns ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]))).join('  ')
    : `${cells.slice(0, leftColumns).map((cell, column) => String(cell).padEnd(widths[column])).join('  ')}  ${cells[leftColumns]}`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...table.map(line)];
}

function times(ratio) {
  return ratio === undefined ? '-' : `${format(ratio, 2)}×`;
}

function maximum(values) {
  const numbers = values.filter((value) => typeof value === 'number' && Number.isFinite(value));
  return numbers.length > 0 ? Math.max(...numbers) : undefined;
}

function divide(numerator, denominator) {
  return numerator !== undefined && denominator ? numerator / denominator : undefined;
}

function format(value, digits) {
  if (value === undefined) return '-';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function signed(value) {
  return value === undefined ? '-' : `${value >= 0 ? '+' : ''}${format(value, 3)}`;
}
