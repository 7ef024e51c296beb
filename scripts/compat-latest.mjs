// npm run compat:latest: the compatibility matrix against the newest published releases of
// the clients it drives, not the pinned ones. Asks npm for the newest version of the four
// coding tools and the three SDKs, installs them into a scratch folder outside the tree
// ($GW_COMPAT_LATEST_DIR, default <tmp>/gw-compat-latest) with `npm install --prefix`, runs
// the tests that record matrix cells with GW_COMPAT_CLIENTS_DIR pointing there (the tools
// and the SDK modules come from that folder; the cells go to test-results/compat-latest/),
// and writes docs/compatibility.md's second table: pinned vs latest, cell by cell.
//   --skip-install  reuse the scratch folder as it is (after a first run)
//   --write-only    only write the table from the cells of the last run
// Exits 1 when a latest cell failed (the page is written either way: it shows what failed).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DOC_PATH, LATEST_CELLS_DIR, REPO_ROOT, admitsNode, writeLatestTable } from './compat-matrix.mjs';

const TOOLS_MANIFEST = path.join(REPO_ROOT, 'test', 'e2e', 'coding-tools', 'tools', 'package.json');
const SDKS = ['openai', '@anthropic-ai/sdk', '@google/genai'];
const TOOL_BINARIES = ['claude', 'codex', 'gemini', 'opencode'];
/** The test files that record matrix cells (gw-run.test.ts records none). */
const CELL_TESTS = ['test/e2e/coding-tools/coding-tools.test.ts', 'test/e2e/coding-tools/codex-websocket.test.ts', 'test/e2e/formats/vertex/vertex-clients.test.ts', 'test/e2e/translation/sdk-matrix.test.ts'];
/** Imported by the SDK tests (test/support/compat-clients.ts): bare names resolve from the folder's node_modules. */
const SDK_ENTRY = "export { default as OpenAI } from 'openai';\nexport { default as Anthropic } from '@anthropic-ai/sdk';\nexport { GoogleGenAI } from '@google/genai';\n";

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: REPO_ROOT, stdio: 'inherit', ...options });
  return result.status ?? 1;
}

/** The versions the repo pins: the coding tools' manifest and package.json's devDependencies. */
function pinnedVersions() {
  const tools = JSON.parse(readFileSync(TOOLS_MANIFEST, 'utf8')).dependencies;
  const own = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  return { ...own.dependencies, ...own.devDependencies, ...tools };
}

/** The oldest Node gw supports: the version in package.json's engines.node (">=20.18.1"). */
function gwNodeFloor() {
  const range = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).engines?.node ?? '';
  return /\d+(\.\d+){0,2}/.exec(range)?.[0] ?? '20';
}

function numeric(version) {
  return version.split('.').map(Number);
}

/** The newest release from the pinned one on whose engines.node admits gw's oldest Node: where a pin can move to. */
function newestFor(name, from, node) {
  // Whole manifests: asked for version and engines, npm drops engines from every release once one lacks it.
  const result = spawnSync('npm', ['view', `${name}@>=${from}`, '--json'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0 || result.stdout.trim() === '') return null;
  const answer = JSON.parse(result.stdout);
  const releases = (Array.isArray(answer) ? answer : [answer]).filter((release) => /^\d+\.\d+\.\d+$/.test(release.version ?? ''));
  const fit = releases.filter((release) => admitsNode(release.engines?.node, node) === true);
  fit.sort((a, b) => numeric(a.version).reduce((order, part, index) => order || part - numeric(b.version)[index], 0));
  return fit.at(-1)?.version ?? null;
}

/** npm's newest published version of a package and the Node versions it declares. */
function newest(name, pinned) {
  // The whole manifest: asked for two fields, npm answers with a bare string when one is absent.
  const result = spawnSync('npm', ['view', `${name}@latest`, '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`npm view ${name}: ${result.stderr.trim()}`);
  const info = JSON.parse(result.stdout);
  if (typeof info.version !== 'string') throw new Error(`npm view ${name}: no version in its answer`);
  const node = info.engines?.node ?? null;
  const forGwNode = admitsNode(node, gwNodeFloor()) === true ? info.version : pinned[name] && newestFor(name, pinned[name], gwNodeFloor());
  return { name, pinned: pinned[name] ?? null, version: info.version, node, forGwNode: forGwNode ?? null };
}

/** The scratch folder's manifest: the newest versions, with the pinned manifest's install-script allowances. */
function scratchManifest(packages) {
  const pinned = JSON.parse(readFileSync(TOOLS_MANIFEST, 'utf8'));
  const versions = Object.fromEntries(packages.map((pkg) => [pkg.name, pkg.version]));
  const allowScripts = Object.fromEntries(Object.entries(pinned.allowScripts ?? {}).map(([spec, allowed]) => {
    const at = spec.lastIndexOf('@');
    const name = at > 0 ? spec.slice(0, at) : spec;
    return [at > 0 && versions[name] ? `${name}@${versions[name]}` : spec, allowed];
  }));
  return { name: 'gw-compat-latest', private: true, dependencies: versions, allowScripts };
}

function install(dir, manifest) {
  mkdirSync(dir, { recursive: true });
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  const stamp = path.join(dir, '.installed');
  writeFileSync(path.join(dir, 'sdks.mjs'), SDK_ENTRY);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === text) return 0;
  rmSync(stamp, { force: true });
  writeFileSync(path.join(dir, 'package.json'), text);
  console.log(`compat:latest: installing ${Object.entries(manifest.dependencies).map(([name, version]) => `${name}@${version}`).join(' ')} into ${dir}`);
  const status = run('npm', ['install', '--prefix', dir, '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error']);
  if (status !== 0) return status;
  const home = path.join(dir, '.probe-home');
  mkdirSync(home, { recursive: true });
  for (const tool of TOOL_BINARIES) {
    const probe = spawnSync(path.join(dir, 'node_modules', '.bin', tool), ['--version'], { env: { ...process.env, HOME: home }, stdio: 'ignore', timeout: 60_000 });
    if (probe.status !== 0) {
      console.error(`compat:latest: the coding tool ${tool} does not start after installing into ${dir}`);
      return 1;
    }
  }
  writeFileSync(stamp, text);
  return 0;
}

function runCellTests(dir) {
  if (run('npm', ['run', 'build']) !== 0) return 1;
  // One file at a time: each starts its own gw and several tools at once. On the test run's Node (26),
  // as npm test and npm run compat -- --run run them: the newest clients declare Node >= 22.
  return run('bash', ['scripts/vitest-on-test-node.sh', 'run', '--project', 'e2e', '--no-file-parallelism', ...CELL_TESTS], { env: { ...process.env, GW_COMPAT_CLIENTS_DIR: dir } });
}

function main(argv) {
  const unknown = argv.filter((arg) => arg !== '--skip-install' && arg !== '--write-only');
  if (unknown.length > 0) {
    console.error(`usage: npm run compat:latest [-- --skip-install | --write-only]   (unknown: ${unknown.join(' ')})`);
    return 2;
  }
  const dir = path.resolve(process.env.GW_COMPAT_LATEST_DIR ?? path.join(os.tmpdir(), 'gw-compat-latest'));
  const toolNames = Object.keys(JSON.parse(readFileSync(TOOLS_MANIFEST, 'utf8')).dependencies);
  const pinned = pinnedVersions();
  const packages = [...toolNames, ...SDKS].map((name) => newest(name, pinned));
  let testsStatus = 0;
  if (!argv.includes('--write-only')) {
    if (!argv.includes('--skip-install') && install(dir, scratchManifest(packages)) !== 0) return 1;
    testsStatus = runCellTests(dir);
  }
  let outcome;
  try {
    outcome = writeLatestTable({ packages, node: process.version, gwNode: gwNodeFloor() });
  } catch (error) {
    console.error(`compat:latest: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const doc = path.relative(REPO_ROOT, DOC_PATH);
  console.log(`compat:latest: ${outcome.cells} cells from ${path.relative(REPO_ROOT, LATEST_CELLS_DIR)}/; ${doc} ${outcome.changed ? 'updated' : 'unchanged'}`);
  if (outcome.failed.length > 0) console.error(`compat:latest: cells that fail with the newest releases:\n  ${outcome.failed.join('\n  ')}`);
  return outcome.failed.length > 0 ? 1 : testsStatus;
}

process.exitCode = main(process.argv.slice(2));
