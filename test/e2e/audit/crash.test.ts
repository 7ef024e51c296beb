// kill -9 in the middle of appends: the next open repairs what it must, and the trail verifies.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAuditTrail } from '../../../src/audit/audit-trail.js';
import { verifyFile } from '../../../src/audit/verify-file.js';
import { makeTempHome, type TempHome } from '../../audit/helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const built = path.join(root, 'dist/audit/audit-trail.js');
const child = path.join(root, 'test/e2e/audit/fixtures/append-until-killed.mjs');

function newestSource(): number {
  const dir = path.join(root, 'src/audit');
  return Math.max(...readdirSync(dir).filter((name) => name.endsWith('.ts')).map((name) => statSync(path.join(dir, name)).mtimeMs));
}

/** Runs the child until it has reported at least `records` durable records, then SIGKILLs it. */
async function appendThenKill(home: TempHome, records: number): Promise<number> {
  const worker = spawn('node', [child, pathToFileURL(built).href, home.dir, home.keyPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  let reported = 0;
  const exited = new Promise<NodeJS.Signals | null>((resolve) => worker.on('exit', (_code, signal) => resolve(signal)));
  worker.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const numbers = chunk.trim().split('\n').map(Number);
    reported = Math.max(reported, ...numbers);
    if (reported >= records) worker.kill('SIGKILL');
  });
  expect(await exited).toBe('SIGKILL');
  return reported;
}

let home: TempHome;

beforeAll(() => {
  // The child runs plain node, so it needs the compiled trail; build when dist is missing or stale.
  if (!existsSync(built) || statSync(built).mtimeMs < newestSource()) {
    try {
      execFileSync('node', [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', root], { stdio: 'ignore' });
    } catch {
      // Errors elsewhere in the tree do not stop tsc from emitting dist/audit.
    }
  }
  expect(existsSync(built)).toBe(true);
}, 120_000);

beforeEach(async () => {
  home = await makeTempHome();
});

afterEach(async () => {
  await home.remove();
});

describe('kill -9 while appending', () => {
  it('reopens (taking over the dead lock), and every reported record is in a trail that verifies', async () => {
    let reported = 0;
    for (let round = 0; round < 3; round += 1) reported += await appendThenKill(home, 1500 + round * 700);
    const trail = await openAuditTrail({ dir: home.dir, keyPath: home.keyPath, fsync: 'always' });
    expect(trail.status().ok).toBe(true);
    await trail.close();
    const result = await verifyFile(home.logFile);
    expect(result.firstBad).toBeUndefined();
    expect(result).toMatchObject({ ok: true, warnings: [] });
    // Three starts in the children, one here, one stop; plus every record a child saw resolve.
    expect(result.records).toBeGreaterThanOrEqual(reported + 5);
  }, 60_000);
});
