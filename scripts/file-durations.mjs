// Refreshes test/support/file-durations.json, the seconds of each test file the longest-first
// sequencer (test/support/longest-first-sequencer.ts) orders a run by, from a run's JSON report:
//   bash scripts/vitest-on-test-node.sh run --reporter=default --reporter=json --outputFile.json=test-results/report.json
//   npm run test:durations -- test-results/report.json
// A file's seconds are its end minus its start in that run (imports, hooks and tests). The files
// the report holds replace their old seconds (a run of one area refreshes that area); files that
// no longer exist and files of one second or less are left out: the sequencer takes an unknown
// file as short.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reportPath = process.argv[2];
if (!reportPath) {
  process.stderr.write('usage: npm run test:durations -- <vitest JSON report>\n');
  process.exit(2);
}
const listPath = path.join(root, 'test/support/file-durations.json');
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const measured = (report.testResults ?? []).map((result) => [path.relative(root, result.name), Math.round((result.endTime - result.startTime) / 100) / 10]);
const merged = { ...JSON.parse(readFileSync(listPath, 'utf8')), ...Object.fromEntries(measured) };
const durations = Object.entries(merged)
  .filter(([file, seconds]) => seconds > 1 && existsSync(path.join(root, file)))
  .sort((a, b) => b[1] - a[1]);
writeFileSync(listPath, `${JSON.stringify(Object.fromEntries(durations), null, 1)}\n`);
process.stdout.write(`test/support/file-durations.json: ${durations.length} files, the longest ${durations[0]?.[0] ?? 'none'} (${durations[0]?.[1] ?? 0} s)\n`);
