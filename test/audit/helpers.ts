// Shared test helpers: a temp $GW_HOME, a stepping clock, an in-memory chain.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GENESIS_PREV, sealRecord } from '../../src/audit/chain.js';
import type { AuditFields } from '../../src/audit/record.js';

export interface TempHome {
  home: string;
  dir: string;
  keyPath: string;
  logFile: string;
  remove(): Promise<void>;
}

export async function makeTempHome(): Promise<TempHome> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'gw-audit-'));
  const dir = path.join(home, 'audit');
  return {
    home, dir,
    keyPath: path.join(home, 'audit.key'),
    logFile: path.join(dir, 'audit.jsonl'),
    remove: () => rm(home, { recursive: true, force: true }),
  };
}

/** A clock that advances one millisecond per call, so timestamps are distinct and predictable. */
export function steppingClock(start = Date.parse('2026-01-01T00:00:00.000Z')): () => Date {
  let tick = 0;
  return () => new Date(start + tick++);
}

export async function readLines(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function requestFields(index: number): AuditFields {
  return {
    kind: 'request', request_id: `req_${index}`, team: 'core', key_id: 'vk_abc', model: 'gpt-4o',
    provider: 'openai', status: 200, latency_ms: index % 997, bytes_in: 1200, bytes_out: 3400,
    tokens: { input: 100, output: 250, total: 350 }, outcome: ['ok'],
  };
}

/** N sealed lines built in memory, no writer involved. */
export function buildChain(count: number): string[] {
  const lines: string[] = [];
  let prev = GENESIS_PREV;
  for (let seq = 1; seq <= count; seq += 1) {
    const ts = new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString();
    const { record, line } = sealRecord({ ...requestFields(seq), v: 1, seq, ts, prev });
    prev = record.hash;
    lines.push(line);
  }
  return lines;
}
