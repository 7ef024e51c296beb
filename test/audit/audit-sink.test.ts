// The audit sink's loop over a real trail (the writer, its signed checkpoint, audit.jsonl) with
// an in-memory receiver: batches end on the signed record, the cursor moves only after an
// acknowledgement, a receiver that keeps failing past the bound turns the sink failing, a
// trail that no longer holds what was delivered stops it, and a file target resumes after
// the last event it holds (a torn line cut).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAuditTrail } from '../../src/audit/audit-trail.js';
import { verifyOcsfLines } from '../../src/audit/ocsf/verify-ocsf.js';
import { AuditSink, type SinkTarget } from '../../src/audit/sink/audit-sink.js';
import { createFileSinkTarget } from '../../src/audit/sink/file-sink-target.js';
import { createFileTrailSource } from '../../src/audit/sink/file-trail-source.js';
import { readSinkCursor, SINK_CURSOR_FILE } from '../../src/audit/sink/sink-cursor.js';
import { makeTempHome, readLines, requestFields, steppingClock, type TempHome } from './helpers.js';

const homes: TempHome[] = [];
afterEach(async () => { for (const home of homes.splice(0)) await home.remove(); });

async function trailOf(records: number): Promise<TempHome> {
  const home = await makeTempHome();
  homes.push(home);
  const trail = await openAuditTrail({ dir: home.dir, keyPath: home.keyPath, fsync: 'always', now: steppingClock() });
  for (let index = 1; index <= records; index += 1) await trail.append(requestFields(index));
  await trail.close();
  return home;
}

class MemoryTarget implements SinkTarget {
  readonly name = 'memory://receiver';
  readonly batches: string[][] = [];
  failing = false;
  async deliver(lines: readonly string[]): Promise<void> {
    if (this.failing) throw new Error('the receiver could not be reached (ECONNREFUSED)');
    this.batches.push([...lines]);
  }
}

function sinkFor(home: TempHome, target: SinkTarget, extra: Partial<ConstructorParameters<typeof AuditSink>[0]> = {}): { sink: AuditSink; logs: string[]; over: number[] } {
  const logs: string[] = [];
  const over: number[] = [];
  const sink = new AuditSink({
    source: createFileTrailSource(home.dir), target, cursorFile: path.join(home.home, SINK_CURSOR_FILE), maxBacklogBytes: 1024 * 1024,
    log: (message) => logs.push(message), pollMs: 20, retry: { minMs: 10, maxMs: 20 }, batchBytes: 4096,
    hooks: { delivered: () => undefined, failed: () => undefined, overBound: () => over.push(1) }, ...extra,
  });
  return { sink, logs, over };
}

async function until(check: () => boolean, sink?: AuditSink): Promise<void> {
  for (const deadline = Date.now() + 20_000; !check();) {
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(sink?.health())}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const publicKeyOf = async (home: TempHome) => (await readFile(path.join(home.home, 'audit.pub'), 'utf8')).trim();

describe('audit sink loop', () => {
  it('delivers every record in batches, saves the cursor after each, and the receiver\'s lines verify', async () => {
    const home = await trailOf(60);
    const target = new MemoryTarget();
    const { sink } = sinkFor(home, target);
    sink.start();
    const records = await readLines(home.logFile);
    await until(() => sink.health().delivered_seq === records.length);
    await sink.drain(1000);
    expect(target.batches.length).toBeGreaterThan(3); // 4 KiB of trail a batch
    const lines = target.batches.flat();
    expect(lines.map((line) => JSON.parse(line).raw_data)).toEqual(records);
    const verdict = await verifyOcsfLines(lines, { trustedKeys: [await publicKeyOf(home)] });
    expect(verdict.ok, JSON.stringify(verdict.firstBad)).toBe(true);
    // Only the last batch ends on the checkpoint's record, which is the only signed one.
    expect(lines.filter((line) => JSON.parse(line).unmapped.gw_signatures).length).toBe(1);
    const cursor = await readSinkCursor(path.join(home.home, SINK_CURSOR_FILE));
    expect(cursor).toMatchObject({ v: 1, target: 'memory://receiver', seq: records.length, offset: (await readFile(home.logFile)).length });
    expect(sink.health()).toMatchObject({ status: 'ok', state: 'ok', backlog_events: 0, backlog_bytes: 0 });
  });

  it('resumes from the cursor, and streams from record 1 for another target', async () => {
    const home = await trailOf(20);
    const first = new MemoryTarget();
    const one = sinkFor(home, first).sink;
    one.start();
    await until(() => one.health().delivered_seq === 22, one);
    await one.drain(1000);
    const trail = await openAuditTrail({ dir: home.dir, keyPath: home.keyPath, fsync: 'always', now: steppingClock(Date.parse('2026-02-01T00:00:00Z')) });
    await trail.append(requestFields(99));
    await trail.close();
    const again = new MemoryTarget();
    const two = sinkFor(home, again).sink;
    two.start();
    await until(() => two.health().delivered_seq === 25);
    await two.drain(1000);
    expect(again.batches.flat().map((line) => JSON.parse(line).metadata.sequence)).toEqual([23, 24, 25]);
    const other = new (class extends MemoryTarget { override readonly name = 'memory://another'; })();
    const three = sinkFor(home, other).sink;
    three.start();
    await until(() => three.health().delivered_seq === 25);
    await three.drain(1000);
    expect(other.batches.flat()[0]).toContain('"sequence":1,');
  });

  it('says behind while the receiver fails, failing past the bound (counted once), and ok once caught up', async () => {
    const home = await trailOf(40);
    const target = new MemoryTarget();
    target.failing = true;
    const { sink, logs, over } = sinkFor(home, target, { maxBacklogBytes: 2048 });
    sink.start();
    await until(() => sink.health().failures >= 3);
    expect(sink.health()).toMatchObject({ status: 'degraded', state: 'failing', last_error: 'the receiver could not be reached (ECONNREFUSED)' });
    expect(over).toHaveLength(1);
    expect(logs.filter((line) => line.includes('delivery failed'))).toHaveLength(1);
    target.failing = false;
    await until(() => sink.health().state === 'ok');
    await sink.drain(1000);
    expect(sink.health().backlog_bytes).toBe(0);
    expect(target.batches.flat()).toHaveLength(42);
  });

  it('stops, failing, when the trail no longer holds the record the receiver has', async () => {
    const home = await trailOf(10);
    const cursorFile = path.join(home.home, SINK_CURSOR_FILE);
    const first = sinkFor(home, new MemoryTarget()).sink;
    first.start();
    await until(() => first.health().delivered_seq === 12);
    await first.drain(1000);
    const cursor = JSON.parse(await readFile(cursorFile, 'utf8')) as Record<string, unknown>;
    await writeFile(cursorFile, JSON.stringify({ ...cursor, hash: 'f'.repeat(64) }));
    const target = new MemoryTarget();
    const { sink } = sinkFor(home, target);
    sink.start();
    await until(() => sink.health().state === 'failing');
    await sink.drain(100);
    expect(sink.health().last_error).toMatch(/the trail's record 12 is not the one delivered .*delivery stopped/);
    expect(target.batches).toEqual([]);
  });

  it('a stop does not wait on a receiver that never answers: the drain aborts the batch in flight', async () => {
    const home = await trailOf(5);
    let aborted = false;
    const silent: SinkTarget = {
      name: 'memory://silent',
      deliver: (_lines, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => { aborted = true; reject(signal.reason as Error); })),
    };
    const { sink } = sinkFor(home, silent);
    sink.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await sink.drain(300);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(aborted).toBe(true);
    expect(sink.health().delivered_seq).toBe(0);
  });

  it('a file target carries on after the last event it holds, cutting a torn line', async () => {
    const home = await trailOf(15);
    const file = path.join(home.home, 'events.jsonl');
    const first = sinkFor(home, createFileSinkTarget(file), { cursorFile: path.join(home.home, 'first-cursor.json') }).sink;
    first.start();
    await until(() => first.health().delivered_seq === 17);
    await first.drain(1000);
    const whole = await readFile(file, 'utf8');
    // As if a crash came after an append of events 16 and 17 and a torn start of more, before any cursor was saved.
    const lines = whole.split('\n').filter(Boolean);
    await writeFile(file, `${lines.join('\n')}\n{"torn":`);
    const second = sinkFor(home, createFileSinkTarget(file), { cursorFile: path.join(home.home, 'second-cursor.json') }).sink;
    second.start();
    await until(() => second.health().delivered_seq === 17);
    await second.drain(1000);
    expect(await readFile(file, 'utf8')).toBe(whole);
    const verdict = await verifyOcsfLines(whole.split('\n'), { trustedKeys: [await publicKeyOf(home)] });
    expect(verdict.ok).toBe(true);
  });
});
