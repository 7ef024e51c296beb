// The gw an operator upgrades from: the main of issue 27's day (commit 144156f), built from
// this repository's own git history into a detached worktree (node_modules linked, emitted
// with tsc). A build already at /tmp/oldgw-up (or GW_OLD_BUILD) at that commit is reused and
// left alone; one made here is removed by release(). A clone without that commit (a shallow
// CI checkout) fails with what to do, never a skip.
import { execFile } from 'node:child_process';
import { access, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const OLD_COMMIT = '144156f';
const REPO = path.resolve(import.meta.dirname, '../../..');
const BUILD_TIMEOUT_MS = 15 * 60_000;

export interface OldBuild {
  /** The old build's bin/gw.js. */
  bin: string;
  /** Removes the worktree this setup made (nothing when the build was found ready). */
  release(): Promise<void>;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(() => true, () => false);
}

/** A ready build at `dir`: its HEAD is the old commit and its dist is emitted. */
async function isReady(dir: string): Promise<boolean> {
  if (!await exists(path.join(dir, 'dist', 'cli', 'main.js')) || !await exists(path.join(dir, 'node_modules'))) return false;
  try {
    const { stdout } = await run('git', ['-C', dir, 'rev-parse', 'HEAD']);
    const { stdout: wanted } = await run('git', ['-C', REPO, 'rev-parse', `${OLD_COMMIT}^{commit}`]);
    return stdout.trim() === wanted.trim();
  } catch {
    return false;
  }
}

async function build(dir: string): Promise<void> {
  try {
    await run('git', ['-C', REPO, 'cat-file', '-e', `${OLD_COMMIT}^{commit}`]);
  } catch {
    throw new Error(`the upgrade test builds gw at ${OLD_COMMIT} from git, and this clone lacks that commit (a shallow clone?): fetch the history (git fetch --unshallow) and run it again`);
  }
  await run('git', ['-C', REPO, 'worktree', 'add', '--detach', dir, OLD_COMMIT]);
  await symlink(await realpath(path.join(REPO, 'node_modules')), path.join(dir, 'node_modules'), 'dir');
  // --noCheck: only the emitted JavaScript is needed (that commit type-checked when it was made); it halves the time.
  const tsc = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
  await run(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.json'), '--noCheck'], { timeout: BUILD_TIMEOUT_MS });
}

export async function oldBuild(): Promise<OldBuild> {
  const ready = process.env.GW_OLD_BUILD ?? '/tmp/oldgw-up';
  if (await isReady(ready)) return { bin: path.join(ready, 'bin', 'gw.js'), release: async () => undefined };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gw-old-build-'));
  await rm(dir, { recursive: true }); // git worktree add makes the folder itself
  const release = async () => {
    await rm(path.join(dir, 'node_modules'), { force: true }); // the link only, before anything walks the tree
    await run('git', ['-C', REPO, 'worktree', 'remove', '--force', dir]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    await run('git', ['-C', REPO, 'worktree', 'prune']).catch(() => undefined);
  };
  try {
    await build(dir);
  } catch (error) {
    await release();
    throw error;
  }
  return { bin: path.join(dir, 'bin', 'gw.js'), release };
}
