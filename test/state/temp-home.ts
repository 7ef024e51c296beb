// A fresh $GW_HOME per test, removed afterwards.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const created: string[] = [];

afterEach(async () => {
  await Promise.all(created.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A parent folder that exists and a home inside it that does not, so creation is tested too. */
export async function makeTempHome(): Promise<string> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'gw-state-'));
  created.push(parent);
  return path.join(parent, 'home');
}
