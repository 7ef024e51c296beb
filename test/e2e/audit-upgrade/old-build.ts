// The gw an operator upgrades from: the main of issue 27's day (commit 144156f), built once from
// this repository's own git history and cached outside the repository, like the coding tools:
// $GW_OLD_BUILD_CACHE or ~/.cache/gw/old-builds/<full commit>/ (the tree from `git archive`,
// emitted with tsc, node_modules linked to this checkout's). Later runs, and fresh clones, reuse
// it. GW_OLD_BUILD names a ready build to use instead. A clone without that commit (a shallow CI
// checkout) fails with what to do, never a skip.
import { execFile, spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const OLD_COMMIT = '144156f';
const REPO = path.resolve(import.meta.dirname, '../../..');
const BUILD_TIMEOUT_MS = 15 * 60_000;
/** Written last: a folder without it is a build that did not finish. */
const STAMP = '.gw-old-build';

export interface OldBuild {
  /** The old build's bin/gw.js. */
  bin: string;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(() => true, () => false);
}

function cacheRoot(): string {
  return process.env.GW_OLD_BUILD_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'gw', 'old-builds');
}

async function fullCommit(): Promise<string> {
  try {
    return (await run('git', ['-C', REPO, 'rev-parse', '--verify', `${OLD_COMMIT}^{commit}`])).stdout.trim();
  } catch {
    throw new Error(`the upgrade test builds gw at ${OLD_COMMIT} from git, and this clone lacks that commit (a shallow clone?): fetch the history (git fetch --unshallow) and run it again`);
  }
}

/** A finished build of `commit` at `dir`. */
async function isReady(dir: string, commit: string): Promise<boolean> {
  const stamp = await readFile(path.join(dir, STAMP), 'utf8').catch(() => '');
  return stamp.trim() === commit && exists(path.join(dir, 'dist', 'cli', 'main.js'));
}

/** Points the build's node_modules at this checkout's (a cached build outlives the clone that made it). */
async function linkNodeModules(dir: string): Promise<void> {
  const target = await realpath(path.join(REPO, 'node_modules'));
  const link = path.join(dir, 'node_modules');
  if (await realpath(link).catch(() => null) === target) return;
  // Renamed over the old link, so a concurrent run never sees none.
  const fresh = `${link}.${process.pid}`;
  await symlink(target, fresh, 'dir');
  await rename(fresh, link);
}

/** `git archive <commit> | tar -x -C dir`: the tree alone, no worktree registered in this repository. */
async function extractTree(commit: string, dir: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const archive = spawn('git', ['-C', REPO, 'archive', commit], { stdio: ['ignore', 'pipe', 'inherit'] });
    const tar = spawn('tar', ['-x', '-C', dir], { stdio: ['pipe', 'inherit', 'inherit'] });
    archive.stdout.pipe(tar.stdin);
    archive.once('error', reject);
    tar.once('error', reject);
    tar.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`extracting ${commit} failed (tar exited ${code})`))));
  });
}

async function build(commit: string, target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  // Built beside the target and renamed into place: two runs building at once both end with one whole build.
  const dir = await mkdtemp(`${target}.building-`);
  try {
    await extractTree(commit, dir);
    await linkNodeModules(dir);
    // --noCheck: only the emitted JavaScript is needed (that commit type-checked when it was made); it halves the time.
    const tsc = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.json'), '--noCheck'], { timeout: BUILD_TIMEOUT_MS });
    await writeFile(path.join(dir, STAMP), `${commit}\n`);
    if (await exists(target) && !await isReady(target, commit)) await rm(target, { recursive: true, force: true });
    await rename(dir, target).catch(async (error: unknown) => {
      if (!await isReady(target, commit)) throw error;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function oldBuild(): Promise<OldBuild> {
  const commit = await fullCommit();
  const given = process.env.GW_OLD_BUILD;
  if (given) {
    if (!await exists(path.join(given, 'dist', 'cli', 'main.js'))) throw new Error(`GW_OLD_BUILD=${given} holds no build (dist/cli/main.js)`);
    return { bin: path.join(given, 'bin', 'gw.js') };
  }
  const dir = path.join(cacheRoot(), commit);
  if (!await isReady(dir, commit)) await build(commit, dir);
  await linkNodeModules(dir);
  return { bin: path.join(dir, 'bin', 'gw.js') };
}
