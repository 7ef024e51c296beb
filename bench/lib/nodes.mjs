// Which Node binaries run the proxies under test. BENCH_NODES lists them (default: the Node running
// the bench): a major version (`20,26`: the running Node when its major matches, else the test run's
// Node from scripts/ensure-test-node.sh, fetched once from the npm registry) or a path to a `node`.
// The mock provider, the load generator and the in-process DLP and spend figures always run on the
// bench's own Node, so every Node's proxies face the same load.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** One Node: the binary and what `--version` says (the label every figure carries). */
function describeNode(binary) {
  const version = binary === process.execPath ? process.version : execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  return { path: binary, version };
}

function majorOf(version) {
  return Number(version.replace(/^v/, '').split('.')[0]);
}

/** The Node the tests run on (scripts/ensure-test-node.sh prints its path, installing it once). */
function testRunNode(projectRoot) {
  const script = path.join(projectRoot, 'scripts', 'ensure-test-node.sh');
  return execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

/** BENCH_NODES resolved to binaries, in the order given, without duplicates. */
export function resolveNodes(list, projectRoot) {
  const entries = (list ?? '').split(',').map((item) => item.trim()).filter(Boolean);
  if (entries.length === 0) return [describeNode(process.execPath)];
  const nodes = [];
  for (const entry of entries) {
    let node;
    if (/^\d+$/.test(entry)) {
      node = majorOf(process.version) === Number(entry) ? describeNode(process.execPath) : describeNode(testRunNode(projectRoot));
      if (majorOf(node.version) !== Number(entry)) {
        throw new Error(`BENCH_NODES: no Node ${entry} here (the running Node is ${process.version}, the test run's ${node.version}); give the path to a Node ${entry} binary`);
      }
    } else {
      node = describeNode(path.resolve(entry));
    }
    if (!nodes.some((known) => known.version === node.version)) nodes.push(node);
  }
  return nodes;
}

/** Every other run starts with the other end of the list, so no Node always measures first. */
export function orderNodesForRun(nodes, run) {
  return run % 2 === 0 ? [...nodes].reverse() : nodes;
}
