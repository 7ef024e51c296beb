// The bench's summary: medians over runs, gw's CPU per request over the bare proxy's and the
// fastify floor's in the same run, and whether the coding-agent issue's target is met. Pure
// arithmetic over recorded measurements (the bench itself runs real processes and is no test).
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs bench module without type declarations
import { compareGwWithBare, compareWithBaseline, formatReport, summarize, summarizeByNode } from '../../bench/lib/report.mjs';

interface Cell { run: number; scenario: string; connections: number; target: string; cpu?: number; p50?: number; skipped?: string; node?: string }

function measurement(cell: Cell): object {
  if (cell.skipped) return { run: cell.run, scenario: cell.scenario, connections: cell.connections, target: cell.target, node: cell.node, skipped: cell.skipped };
  return {
    run: cell.run, scenario: cell.scenario, connections: cell.connections, target: cell.target, node: cell.node,
    result: { requestsPerSecond: 1000, latencyMs: { p50: cell.p50 ?? 1, p99: 2 }, targetCpuMicrosPerRequest: cell.cpu, failed: 0 },
  };
}

const settings = { scenarios: ['chat', 'messages-large-stream'], connections: [32], targets: ['direct', 'bare-proxy', 'fastify-floor', 'gw'], runs: 3, durationSeconds: 4, warmupSeconds: 1, cpuCount: 2 };

function cells(): Cell[] {
  const list: Cell[] = [];
  const cpu: Record<string, Record<string, number[]>> = {
    chat: { 'bare-proxy': [50, 60, 55], 'fastify-floor': [45, 48, 52], gw: [150, 140, 160] },
    'messages-large-stream': { 'bare-proxy': [400, 380, 420], 'fastify-floor': [3000, 3100, 2900], gw: [1190, 1200, 1210] },
  };
  for (let run = 1; run <= 3; run++) {
    for (const scenario of settings.scenarios) {
      list.push({ run, scenario, connections: 32, target: 'direct', p50: 0.5 });
      for (const target of ['bare-proxy', 'fastify-floor', 'gw']) list.push({ run, scenario, connections: 32, target, cpu: cpu[scenario]![target]![run - 1]!, p50: target === 'gw' ? 3 : 1 });
    }
  }
  return list;
}

describe('bench report', () => {
  it('divides medians: gw over the bare proxy and over the fastify floor, against each scenario\'s target', () => {
    const rows = summarize(cells().map(measurement), settings);
    const ratios = compareGwWithBare(rows);
    const chat = ratios.find((ratio: { scenario: string }) => ratio.scenario === 'chat');
    const large = ratios.find((ratio: { scenario: string }) => ratio.scenario === 'messages-large-stream');
    expect(chat).toMatchObject({ bareCpuMicros: 55, floorCpuMicros: 48, gwCpuMicros: 150, targetCpuRatio: 2.5, p50Ratio: 3 });
    expect(chat.cpuRatio).toBeCloseTo(150 / 55, 6);
    expect(chat.floorCpuRatio).toBeCloseTo(150 / 48, 6);
    expect(large.cpuRatio).toBeCloseTo(1200 / 400, 6);

    const report: string = formatReport(rows, ratios, settings, { foreignBusyPercent: 1, stealPercent: 0 });
    const line = (scenario: string) => report.split('\n').find((text) => text.startsWith(`${scenario} `) && text.includes('×'));
    expect(line('chat')).toMatch(/\b55\s+48\s+150\s+2\.73×\s+3\.13×\s+≤ 2\.5× not met\s+3\.00×$/);
    // Exactly at the target counts as met ("at most 3×").
    expect(line('messages-large-stream')).toMatch(/\b400\s+3,000\s+1,200\s+3\.00×\s+0\.40×\s+≤ 3\.0× met\s+3\.00×$/);
  });

  it('without the floor the column says so, and a scenario gw could not answer gives no ratio', () => {
    const without = cells().filter((cell) => cell.target !== 'fastify-floor' && !(cell.scenario === 'chat' && cell.target === 'gw'));
    without.push({ run: 1, scenario: 'chat', connections: 32, target: 'gw', skipped: '401 unauthorized' });
    const narrow = { ...settings, targets: ['direct', 'bare-proxy', 'gw'] };
    const rows = summarize(without.map(measurement), narrow);
    const ratios = compareGwWithBare(rows);
    expect(ratios.map((ratio: { scenario: string }) => ratio.scenario)).toEqual(['messages-large-stream']);
    expect(ratios[0].floorCpuRatio).toBeUndefined();
    const report: string = formatReport(rows, ratios, narrow, { foreignBusyPercent: 1, stealPercent: 0 });
    expect(report).toMatch(/chat\s+c32\s+-\s+gw\s+gw: 401 unauthorized/);
    expect(report).toMatch(/messages-large-stream\s+c32\s+-\s+400\s+-\s+1,200\s+3\.00×\s+-\s+≤ 3\.0× met/);
  });

  it('pairs gw with gw-baseline run by run: the median of each run\'s ratio, not the ratio of medians', () => {
    const both = { ...settings, scenarios: ['chat'], targets: ['direct', 'bare-proxy', 'gw', 'gw-baseline'] };
    // The machine slows down in run 3: every target's CPU doubles. Per run gw costs 1.1× the baseline.
    const cpu: Record<string, number[]> = { 'bare-proxy': [50, 50, 100], gw: [110, 220, 220], 'gw-baseline': [100, 200, 200] };
    const list: Cell[] = [];
    for (let run = 1; run <= 3; run++) {
      for (const target of Object.keys(cpu)) list.push({ run, scenario: 'chat', connections: 32, target, cpu: cpu[target]![run - 1]!, p50: target === 'bare-proxy' ? 1 : target === 'gw' ? 2.2 : 2 });
    }
    const baseline = compareWithBaseline(list.map(measurement), both);
    expect(baseline).toHaveLength(1);
    expect(baseline[0].runs).toBe(3);
    expect(baseline[0].cpuRatio).toBeCloseTo(1.1, 6);
    expect(baseline[0].p50Ratio).toBeCloseTo(1.1, 6);
    expect(baseline[0].gwCpuOverBare).toBeCloseTo(2.2, 6);
    expect(baseline[0].baseCpuOverBare).toBeCloseTo(2, 6);
    const rows = summarize(list.map(measurement), both);
    const report: string = formatReport(rows, compareGwWithBare(rows), both, { foreignBusyPercent: 1, stealPercent: 0 }, baseline);
    expect(report.split('\n').find((text) => text.startsWith('chat ') && text.includes('1.10×'))).toMatch(/c32\s+-\s+3\s+1\.10×\s+1\.10×\s+2\.20×\s+2\.00×\s+2\.20×\s+2\.00×$/);
    // Without a baseline target there is no table.
    expect(compareWithBaseline(list.map(measurement), settings)).toEqual([]);
  });

  it('with two Nodes: each Node\'s gw over its own bare proxy, every row naming its Node, the ratios side by side', () => {
    const nodes = [{ version: 'v20.20.2' }, { version: 'v26.12.1' }];
    const two = { ...settings, scenarios: ['chat'], targets: ['direct', 'bare-proxy', 'gw'], nodes, benchNode: 'v20.20.2' };
    // Node 26 runs both proxies faster; gw/bare is what compares: 3.00× on 20, 2.00× on 26.
    const cpu: Record<string, Record<string, number>> = { 'v20.20.2': { 'bare-proxy': 50, gw: 150 }, 'v26.12.1': { 'bare-proxy': 40, gw: 80 } };
    const list: Cell[] = [];
    for (let run = 1; run <= 3; run++) {
      list.push({ run, scenario: 'chat', connections: 32, target: 'direct', p50: 0.5, node: 'v20.20.2' });
      for (const node of nodes) {
        for (const target of ['bare-proxy', 'gw']) list.push({ run, scenario: 'chat', connections: 32, target, node: node.version, cpu: cpu[node.version]![target]!, p50: target === 'gw' ? 2 : 1 });
      }
    }
    const rows = summarizeByNode(list.map(measurement), two);
    expect(rows.map((row: { target: string; node: string }) => `${row.target}@${row.node}`)).toEqual(['direct@v20.20.2', 'bare-proxy@v20.20.2', 'gw@v20.20.2', 'bare-proxy@v26.12.1', 'gw@v26.12.1']);
    // The mock alone is paired with every Node's rows: added latency is target − direct in the same run.
    expect(rows.find((row: { target: string; node: string }) => row.target === 'gw' && row.node === 'v26.12.1').addedP50Ms).toBeCloseTo(1.5, 6);
    const ratios = compareGwWithBare(rows);
    expect(ratios.map((ratio: { node: string; cpuRatio: number }) => [ratio.node, ratio.cpuRatio])).toEqual([['v20.20.2', 3], ['v26.12.1', 2]]);
    const report: string = formatReport(rows, ratios, two, { foreignBusyPercent: 1, stealPercent: 0 });
    expect(report).toMatch(/^chat\s+c32\s+v26\.12\.1\s+gw\s+1,000\s/m);
    expect(report).toContain('the mock, the load generator and the figures below the tables ran on the bench\'s Node v20.20.2');
    expect(report).toMatch(/^by Node\s+conns\s+gw µs v20\.20\.2\s+CPU gw\/bare v20\.20\.2\s+p50 gw\/bare v20\.20\.2\s+gw µs v26\.12\.1/m);
    expect(report).toMatch(/^chat\s+c32\s+150\s+3\.00×\s+2\.00×\s+80\s+2\.00×\s+2\.00×$/m);
  });
});
