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

/** gw ÷ bare-proxy for CPU per request and p50, per scenario and load: the numbers to gate on. */
export function compareGwWithBare(rows) {
  const ratios = [];
  for (const gw of rows.filter((row) => row.target === 'gw' && !row.skipped && row.runs > 0)) {
    const bare = rows.find((row) => row.target === 'bare-proxy' && row.scenario === gw.scenario && row.connections === gw.connections);
    if (!bare || bare.runs === 0) continue;
    ratios.push({
      scenario: gw.scenario, connections: gw.connections,
      cpuRatio: divide(gw.cpuMicrosPerRequest, bare.cpuMicrosPerRequest),
      p50Ratio: divide(gw.p50Ms, bare.p50Ms),
      addedP50Ratio: divide(gw.addedP50Ms, bare.addedP50Ms),
    });
  }
  return ratios;
}

export function formatReport(rows, ratios, settings, noise) {
  const header = ['scenario', 'conns', 'target', 'req/s', 'p50 ms', 'p99 ms', '+p50 ms', '+p99 ms', 'CPU µs/req', 'RSS MB (peak)', 'x-gw-overhead p50', 'errors'];
  const table = rows.map((row) => {
    if (row.skipped) return [row.scenario, `c${row.connections}`, row.target, `${row.target}: ${row.skipped}`];
    return [
      row.scenario, `c${row.connections}`, row.target,
      format(row.requestsPerSecond, 0), format(row.p50Ms, 3), format(row.p99Ms, 3),
      signed(row.addedP50Ms), signed(row.addedP99Ms), format(row.cpuMicrosPerRequest, 0),
      row.rssMb === undefined ? '-' : `${format(row.rssMb, 0)} (${format(row.peakRssMb, 0)})`,
      row.overheadHeaderP50Ms === undefined ? '-' : `${format(row.overheadHeaderP50Ms, 3)} ms`,
      row.failed > 0 ? `${row.failed}: ${row.firstFailure?.slice(0, 60)}` : '0',
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...table.filter((cells) => cells.length === header.length).map((cells) => String(cells[column]).length)));
  const line = (cells) => cells.length === header.length
    ? cells.map((cell, column) => (column < 3 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]))).join('  ')
    : `${cells.slice(0, 3).map((cell, column) => String(cell).padEnd(widths[column])).join('  ')}  ${cells[3]}`;
  const out = [
    `gw bench: ${settings.runs} run(s) × ${settings.durationSeconds} s measured (+${settings.warmupSeconds} s warm-up) per cell; medians over runs; +p50/+p99 = target − direct, paired per run`,
    '',
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...table.map(line),
    '',
  ];
  for (const ratio of ratios) {
    out.push(`gw/bare ${ratio.scenario} c${ratio.connections}: CPU µs/req ×${format(ratio.cpuRatio, 2)}, p50 ×${format(ratio.p50Ratio, 2)}, added p50 ×${format(ratio.addedP50Ratio, 2)}`);
  }
  if (ratios.length === 0 && settings.targets.includes('gw') && settings.targets.includes('bare-proxy')) out.push('gw/bare: no ratio (gw answered no scenario with 2xx)');
  out.push(
    `machine: ${settings.cpuCount} CPUs, ${settings.pinning ? `target pinned to cpu ${settings.pinning.target}, mock + load generator to cpu ${settings.pinning.load}` : 'no pinning'}; ` +
      `busy outside the bench (median) ${format(noise.foreignBusyPercent, 1)}%, steal ${format(noise.stealPercent, 1)}%`,
  );
  if (noise.foreignBusyPercent > 25) out.push('warning: other work kept this machine busy during the measurements; compare ratios within this run only, and rerun when it is quiet');
  return `${out.join('\n')}\n`;
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
