// Docs that stay true (issue 37): every file path and every `gw` command and flag that README.md,
// docs/**/*.md and the folder READMEs (src/**/README.md, test/fixtures/**/README.md) name
// exists: the path in the repository, the command and its flags in the commander program
// (buildProgram, what --help and completions/ are made from). Links are test/docs/doc-links.test.ts's; commands in fenced shell blocks are
// test/cli/readme-commands.test.ts's.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/cli-context.js';
import { buildProgram } from '../../src/cli/main.js';
import { REPO_ROOT, readMarkdown } from './markdown-files.js';
import { commandsNamed, missingPath, pathsNamed, referenceFiles, repositoryPaths, unknownCommand, type Reference } from './doc-references.js';

const context: CliContext = { stdout: { write: () => undefined }, stderr: { write: () => undefined }, env: {}, home: () => '/nonexistent' };
const program = buildProgram(context);
const paths = repositoryPaths();
const files = referenceFiles();
const where = (reference: Reference, reason: string) => `${reference.file}:${reference.line}: ${reason}`;

it('finds the pages, and the paths and commands they name', () => {
  expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/request-stages.md', 'src/audit/README.md']));
  expect(files.flatMap(pathsNamed).length).toBeGreaterThan(300);
  expect(files.flatMap(commandsNamed).length).toBeGreaterThan(100);
});

describe.each(files.map((file) => [file]))('%s', (file) => {
  it('every file path it names exists in the repository', () => {
    const missing = pathsNamed(file).flatMap((reference) => {
      const reason = missingPath(reference, paths);
      return reason === null ? [] : [where(reference, reason)];
    });
    expect(missing).toEqual([]);
  });

  it('every gw command it names is a command, with flags it takes', () => {
    const unknown = commandsNamed(file).flatMap((reference) => {
      const reason = unknownCommand(reference, program);
      return reason === null ? [] : [where(reference, reason)];
    });
    expect(unknown).toEqual([]);
  });
});

it('docs/README.md is the index: each page of docs/ on one line, under the reader\'s groups', () => {
  const index = readMarkdown('docs/README.md');
  const pages = readdirSync(path.join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md') && name !== 'README.md');
  const listed = [...index.matchAll(/^- \[[^\]]+\]\(([^)#]+)\)/gm)].map((match) => match[1]);
  expect([...listed].sort()).toEqual(pages.sort());
  expect([...index.matchAll(/^## (.+)$/gm)].map((match) => match[1])).toEqual(['Start', 'Run', 'Govern', 'Audit', 'Operate', 'Develop']);
});

it('docs/request-stages.md opens with the lifecycle tree: each stage in the order the code runs it, each status one an error code has', () => {
  const page = readMarkdown('docs/request-stages.md');
  const tree = /```text\n([\s\S]*?)\n```/.exec(page)?.[1] ?? '';
  expect(page.indexOf(tree)).toBeLessThan(page.indexOf('\n## ')); // before the first section
  const stages = [...tree.matchAll(/─▶ (\d)\. /g)].map((match) => Number(match[1]));
  expect(stages).toEqual([0, 2, 1, 3, 4, 5, 6, 7, 8]);
  const documented = new Set([...readMarkdown('docs/errors.md').matchAll(/^\| `GW_ERR_\w+` \| (\d{3}) \|/gm)].map((match) => match[1]));
  const shown = [...tree.matchAll(/([\d/]+) ◀─/g)].flatMap((match) => (match[1] ?? '').split('/'));
  expect(shown.length).toBeGreaterThan(20);
  expect(shown.filter((status) => !documented.has(status))).toEqual([]);
});

describe('the check itself', () => {
  const at = (text: string): Reference => ({ file: 'docs/example.md', line: 1, text });

  it('catches a path that is gone, and takes one that is there, placeholders and bare names included', () => {
    expect(missingPath(at('src/pipeline/no-such-stage.ts'), paths)).toMatch(/does not exist/);
    expect(missingPath(at('no-such-file.ts'), paths)).toMatch(/no file of the repository/);
    expect(missingPath(at('src/pipeline/handle-request.ts'), paths)).toBeNull();
    expect(missingPath(at('src/providers/<name>/adapter.ts'), paths)).toBeNull();
    expect(missingPath(at('src/no-such-folder/<name>.ts'), paths)).toMatch(/does not exist/);
    expect(missingPath(at('sink/sink-queue.ts'), paths)).toBeNull();
  });

  it('finds rooted paths in prose and bare file names in inline code, not inside URLs', () => {
    const file = 'docs/request-stages.md';
    const named = pathsNamed(file).map((reference) => reference.text);
    expect(named).toContain('src/pipeline/handle-request.ts');
    expect(named.some((text) => text.includes('://'))).toBe(false);
  });

  it('catches a command or a flag that is gone, and takes real ones', () => {
    expect(unknownCommand(at('keys create --team T'), program)).toBeNull();
    expect(unknownCommand(at('serve --home ~/gw-hub --port 8080 --standalone'), program)).toBeNull();
    expect(unknownCommand(at('keys mint --team T'), program)).toMatch(/no such command/);
    expect(unknownCommand(at('keys create --squad T'), program)).toMatch(/gw keys create has no --squad/);
    expect(unknownCommand(at('run claude --model x'), program)).toBeNull();
  });
});
