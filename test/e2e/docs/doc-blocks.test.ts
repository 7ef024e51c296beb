// Every shell block of README.md and docs/**/*.md runs as printed (issue 28: docs that are
// tested), file by file, each file in a sandbox of its own (doc-sandbox.ts), blocks in order,
// so that the README's first call and its hub-and-sidecar quickstart are what a reader gets.
// A block that cannot run here says so, visibly, in a `<!-- doc-test: skip: why -->` comment;
// this test lists those. The blocks use the ports they print (8080, 8081): run this file alone.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDirective, type DocDirective } from './doc-directive.js';
import { DocSandbox } from './doc-sandbox.js';
import { codeBlocks, isShell, markdownFiles, type CodeBlock } from '../../docs/markdown-files.js';

interface PlannedBlock { block: CodeBlock; directive: DocDirective }

const planned: PlannedBlock[] = markdownFiles()
  .flatMap((file) => codeBlocks(file))
  .filter(isShell)
  .map((block) => ({ block, directive: parseDirective(block.directive) }));
const skipped = planned.filter((entry) => entry.directive.skip !== null);
const runnable = planned.filter((entry) => entry.directive.skip === null);
const runnableFiles = [...new Set(runnable.map((entry) => entry.block.file))];

const BLOCK_TIMEOUT_MS = 90_000;

it('finds the blocks, and lists the ones not run here with their reasons', () => {
  expect(runnable.length).toBeGreaterThan(10);
  expect(runnableFiles).toContain('README.md');
  const listing = skipped.map(({ block, directive }) => `  ${block.file}:${block.line}: ${directive.skip}`);
  console.info(`docs: ${runnable.length} shell blocks run, ${skipped.length} not run here:\n${listing.join('\n')}`);
  for (const { block, directive } of skipped) expect(directive.skip!.length, `${block.file}:${block.line} gives no reason`).toBeGreaterThan(10);
});

async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

it('the ports the docs print (8080, 8081) are free, else their blocks could not run as printed', async () => {
  expect(await portIsFree(8080), 'something listens on 127.0.0.1:8080: stop it').toBe(true);
  expect(await portIsFree(8081), 'something listens on 127.0.0.1:8081: stop it').toBe(true);
});

it('shows commands only in blocks marked as shell (an unmarked block would not be run)', () => {
  const unmarked = markdownFiles().flatMap((file) => codeBlocks(file))
    .filter((block) => block.language === '' && /^\s*(gw|npm|npx|curl)\s/m.test(block.code))
    .map((block) => `${block.file}:${block.line}`);
  expect(unmarked).toEqual([]);
});

it('the directive parser refuses what it does not know, so a typo cannot turn a check off', () => {
  expect(() => parseDirective('expcet /x/')).toThrow(/unknown doc-test option/);
  expect(parseDirective('after /Logged in/; background until /listening on/').background?.source).toBe('listening on');
});

describe.each(runnableFiles.map((file) => [file]))('%s', (file) => {
  let sandbox: DocSandbox;
  const captured = new Map<string, string>();
  beforeAll(() => { sandbox = new DocSandbox(); });
  afterAll(async () => { await sandbox.dispose(); }, 60_000);

  const blocks = runnable.filter((entry) => entry.block.file === file);
  it.each(blocks.map((entry) => [`line ${entry.block.line}`, entry]))('%s', async (_name, { block, directive }) => {
    if (directive.stopFirst) await sandbox.stopBackground();
    let code = block.code;
    for (const { text, name } of directive.substitutions) {
      const value = captured.get(name);
      expect(value, `${file}:${block.line}: nothing caught ${name} before this block`).toBeDefined();
      code = code.split(text).join(value);
    }
    if (directive.after) await sandbox.waitFor(directive.after, BLOCK_TIMEOUT_MS);
    const where = `${file}:${block.line}`;
    if (directive.background) {
      const match = await sandbox.start(where, code, directive.background, BLOCK_TIMEOUT_MS);
      for (const [name, value] of Object.entries(match.groups ?? {})) captured.set(name, value);
      return;
    }
    const result = await sandbox.run(code, BLOCK_TIMEOUT_MS);
    expect(result.code, `${where} exited ${result.code}:\n${code}\n--- output:\n${result.output}`).toBe(0);
    if (directive.expect) expect(result.output, `${where}: output`).toMatch(directive.expect);
  }, BLOCK_TIMEOUT_MS * 2 + 10_000);
});
