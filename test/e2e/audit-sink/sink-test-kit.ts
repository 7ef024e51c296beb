// What the audit sink's end-to-end tests share: a home with the sink configured through the
// real CLI, steady load from concurrent callers, /health and /metrics readers, the trail's
// lines, and `gw audit verify --ocsf` run with no home (only the file and the public key).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { makeHome, runGwSetup as runGw, type CliResult, type GatewayProcess } from '../../support/gateway-process.js';
import { CHAT_BODY, auditFile } from '../helpers.js';

export async function configureHome(settings: Array<[string, string]>): Promise<string> {
  const home = await makeHome('gw-sink-');
  for (const [name, value] of settings) {
    const result = await runGw(['settings', 'set', name, value], { home });
    expect(result.code, result.stderr).toBe(0);
  }
  return home;
}

async function chat(gateway: GatewayProcess, key: string): Promise<number> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'x-gw-vk': key, 'content-type': 'application/json' }, body: CHAT_BODY });
  await response.text();
  return response.status;
}

/** Callers that each make one call after another until `done()`; resolves with the statuses seen. */
export async function load(gateway: GatewayProcess, key: string, concurrency: number, done: () => boolean): Promise<number[]> {
  const statuses: number[] = [];
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (!done()) statuses.push(await chat(gateway, key).catch(() => 0));
  }));
  return statuses;
}

export async function calls(gateway: GatewayProcess, key: string, count: number, concurrency = 8): Promise<void> {
  let started = 0;
  const statuses = await load(gateway, key, concurrency, () => started++ >= count);
  expect(statuses.every((status) => status === 200), `statuses: ${[...new Set(statuses)].join(',')}`).toBe(true);
}

export interface SinkHealth {
  status: string;
  state: 'ok' | 'behind' | 'failing';
  backlog_events: number;
  backlog_bytes: number;
  delivered_seq: number;
  failures: number;
  last_error?: string;
}

export async function healthText(gateway: GatewayProcess): Promise<string> {
  return (await fetch(`${gateway.url}/health`)).text();
}

export async function sinkHealth(gateway: GatewayProcess): Promise<SinkHealth> {
  const health = JSON.parse(await healthText(gateway)) as { components: { audit_sink?: SinkHealth } };
  expect(health.components.audit_sink, 'the audit_sink component in /health').toBeDefined();
  return health.components.audit_sink!;
}

export async function metricsText(gateway: GatewayProcess): Promise<string> {
  return (await fetch(`${gateway.url}/metrics`)).text();
}

/** A metric's value (the sum over its series), 0 when absent. */
export async function metric(gateway: GatewayProcess, name: string): Promise<number> {
  const text = await metricsText(gateway);
  return text.split('\n').filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** The trail's record lines as stored, in order. */
export async function trailLines(home: string): Promise<string[]> {
  return (await readFile(auditFile(home), 'utf8')).split('\n').filter(Boolean);
}

export function rawDataOf(lines: readonly string[]): string[] {
  return lines.map((line) => (JSON.parse(line) as { raw_data: string }).raw_data);
}

/** `gw audit verify --ocsf FILE --key <home>/audit.pub` (or `keyFile`) with an empty, absent GW_HOME. */
export async function verifyOcsf(lines: readonly string[] | string, home: string, keyFile = path.join(home, 'audit.pub')): Promise<CliResult> {
  const auditor = await makeHome('gw-auditor-');
  let file = typeof lines === 'string' ? lines : path.join(auditor, 'received.ocsf.jsonl');
  if (typeof lines !== 'string') await writeFile(file, `${lines.join('\n')}\n`);
  file = path.resolve(file);
  return runGw(['audit', 'verify', '--ocsf', file, '--key', keyFile], { env: { GW_HOME: path.join(auditor, 'none') } });
}
