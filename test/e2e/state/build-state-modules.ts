// Child processes cannot run TypeScript, so the concurrency tests compile
// src/state alone into a throwaway folder inside the repo (so `lowdb` still
// resolves from node_modules) instead of relying on, or racing, the shared dist/.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const repo = path.resolve(import.meta.dirname, '..', '..', '..');

export async function buildStateModules(): Promise<{ outDir: string; remove: () => Promise<void> }> {
  const folder = await mkdtemp(path.join(repo, '.gw-test-build-'));
  const outDir = path.join(folder, 'out');
  const config = {
    extends: path.join(repo, 'tsconfig.json'),
    compilerOptions: { outDir, rootDir: path.join(repo, 'src'), sourceMap: false },
    include: [path.join(repo, 'src', 'state', '**', '*.ts')],
  };
  await writeFile(path.join(folder, 'tsconfig.json'), JSON.stringify(config));
  await promisify(execFile)(process.execPath, [path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(folder, 'tsconfig.json')]);
  return { outDir, remove: () => rm(folder, { recursive: true, force: true }) };
}
