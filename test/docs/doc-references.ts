// What the docs name that a reader would look for: file paths of the repository and `gw` commands
// with their flags, found in README.md, docs/**/*.md and the folder READMEs (src/**/README.md,
// test/fixtures/**/README.md), and the check of each against the repository's files and the
// commander program (issue 37).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { REPO_ROOT, markdownFiles, readMarkdown } from './markdown-files.js';

export interface Reference { file: string; line: number; text: string }

/** The folders at the repository's top that docs name paths under. */
const ROOTS = ['src', 'test', 'docs', 'bench', 'scripts', 'completions', 'bin', '.ci', 'vendor'];
/** A path under one of them, anywhere in a line (not inside a URL or a longer path). */
const ROOTED_PATH = new RegExp(`(?<![\\w./@~$-])((?:${ROOTS.map((root) => root.replace('.', '\\.')).join('|')})/[\\w./<>{}*…-]*)`, 'g');
/** A source file named without its folder (`chain.ts`, `sink/sink-queue.ts`): only inside inline code. */
const SOURCE_FILE = /^[\w-]+(?:\/[\w.-]+)*\.(?:ts|mjs|cjs|sh|md)$/;

/** README.md, docs/**, then every folder README under src/ and test/fixtures/. */
export function referenceFiles(): string[] {
  const readmes: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(path.join(REPO_ROOT, folder), { withFileTypes: true })) {
      const relative = path.posix.join(folder, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name === 'README.md') readmes.push(relative);
    }
  };
  walk('src');
  walk('test/fixtures');
  return [...markdownFiles(), ...readmes.sort()];
}

/** Each line outside fenced blocks, with its inline code spans. */
function proseLines(file: string): Array<{ line: number; text: string; spans: string[] }> {
  const lines: Array<{ line: number; text: string; spans: string[] }> = [];
  let inFence = false;
  readMarkdown(file).split('\n').forEach((text, index) => {
    if (/^\s*```/.test(text)) { inFence = !inFence; return; }
    if (inFence) return;
    lines.push({ line: index + 1, text, spans: [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '') });
  });
  return lines;
}

/** Paths of the repository a file names: rooted ones anywhere in its prose, bare source files in inline code. */
export function pathsNamed(file: string): Reference[] {
  const found: Reference[] = [];
  for (const { line, text, spans } of proseLines(file)) {
    // Link targets are doc-links.test.ts's: resolved from the page's folder, not the repository's root.
    const prose = text.replace(/\]\([^)]*\)/g, ']');
    for (const match of prose.matchAll(ROOTED_PATH)) found.push({ file, line, text: match[1] ?? '' });
    for (const span of spans) if (SOURCE_FILE.test(span) && !ROOTS.some((root) => span.startsWith(`${root}/`))) found.push({ file, line, text: span });
  }
  return found;
}

/** Every file and folder of the repository (what a clone holds), as relative paths. */
export function repositoryPaths(): Set<string> {
  const paths = new Set<string>();
  const skip = new Set(['.git', 'node_modules', 'dist', 'coverage']);
  const walk = (folder: string): void => {
    for (const entry of readdirSync(path.join(REPO_ROOT, folder), { withFileTypes: true })) {
      if (skip.has(entry.name)) continue;
      const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
      paths.add(relative);
      if (entry.isDirectory()) walk(relative);
    }
  };
  walk('');
  return paths;
}

/**
 * Why a named path is not in the repository, or null when it is. A rooted path must exist as
 * written (a placeholder such as `<dialect>` or `*` ends what is checked: the folder before it
 * must exist); a bare file name must be the end of some file's path (`chain.ts`, `sink/sink-queue.ts`).
 */
export function missingPath(reference: Reference, paths: ReadonlySet<string>): string | null {
  const placeholder = reference.text.search(/[<>{}*…]/);
  const written = (placeholder === -1 ? reference.text : reference.text.slice(0, reference.text.lastIndexOf('/', placeholder) + 1))
    .replace(/[.,:;]+$/, '').replace(/\/+$/, '');
  if (written === '') return null;
  if (ROOTS.some((root) => written === root || written.startsWith(`${root}/`))) {
    return paths.has(written) || existsSync(path.join(REPO_ROOT, written)) ? null : `${written} does not exist`;
  }
  for (const candidate of paths) if (candidate === written || candidate.endsWith(`/${written}`)) return null;
  return `no file of the repository is ${written}`;
}

/** `gw …` commands a file shows in inline code (fenced shell blocks are test/cli/readme-commands.test.ts's). */
export function commandsNamed(file: string): Reference[] {
  const found: Reference[] = [];
  for (const { line, spans } of proseLines(file)) {
    // A quoted string that starts with gw (`gw audit trail\n`, a signed message) is no command.
    for (const span of spans.filter((text) => !text.includes('\\n'))) {
      // `set\|list` in a table and `list / set` in prose are alternatives, written as `set|list`.
      const written = span.replace(/\\\|/g, '\uE000').replace(/ \/ /g, '\uE000');
      for (const match of written.matchAll(/(?:^|[\s($])gw\s+([^|;&)]+)/g)) found.push({ file, line, text: (match[1] ?? '').replace(/\uE000/g, '|').trim() });
    }
  }
  return found;
}

const findSubcommand = (command: Command, word: string): Command | undefined =>
  command.commands.find((child) => child.name() === word || child.aliases().includes(word));

/** A word that stands for something else (`<team>`, `T`, `claude|codex`, `…`), not a command's name. */
const isPlaceholder = (word: string): boolean => /[<>[\]|…]/.test(word);

/**
 * Why a shown `gw …` command is not one the program has, or null when it is: its leading words
 * must lead from gw to a command, and each --flag after them must be an option of that command or
 * of a command above it. Words after a command with no subcommands are its arguments.
 */
export function unknownCommand(reference: Reference, program: Command): string | null {
  const words = reference.text.split(/\s+/).filter((word) => word !== '');
  // Alternatives among the command's words (`gw prices set|list`): each one is checked.
  const choice = words.findIndex((word) => !word.startsWith('-') && !word.startsWith('[') && /^[a-z-]+(\|[a-z-]+)+$/.test(word));
  if (choice !== -1) {
    for (const alternative of (words[choice] ?? '').split('|')) {
      const reason = unknownCommand({ ...reference, text: [...words.slice(0, choice), alternative, ...words.slice(choice + 1)].join(' ') }, program);
      if (reason !== null) return reason;
    }
    return null;
  }
  let command = program;
  let index = 0;
  for (; index < words.length; index += 1) {
    const word = words[index] ?? '';
    if (word.startsWith('-') || command.commands.length === 0) break;
    if (isPlaceholder(word) || word === 'help') return null; // `gw <noun> list`: nothing definite to check; `help` is commander's own
    const next = findSubcommand(command, word);
    if (!next) {
      // A command that takes arguments besides subcommands (`gw help serve`) stops here.
      if (command !== program && command.registeredArguments.length > 0) break;
      return `gw ${words.slice(0, index + 1).join(' ')}: no such command`;
    }
    command = next;
  }
  if (command.name() === 'run' || command.parent?.name() === 'run') return null; // gw run hands every word after the tool's name to the tool
  const known = new Set(['--help', '-h']);
  for (let level: Command | null = command; level; level = level.parent) {
    for (const option of level.options) for (const flag of [option.long, option.short]) if (flag) known.add(flag);
  }
  // An optional flag is shown in brackets (`[--json|--csv]`), alternatives apart by |.
  for (const word of words.slice(index).flatMap((text) => text.replace(/^\[+/, '').split('|'))) {
    const flag = /^--?[a-zA-Z][\w-]*/.exec(word)?.[0];
    if (flag && !known.has(flag)) return `gw ${commandPath(command)} has no ${flag}`;
  }
  return null;
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let level: Command | null = command; level?.parent; level = level.parent) names.unshift(level.name());
  return names.join(' ');
}
