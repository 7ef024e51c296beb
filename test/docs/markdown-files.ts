// The user-facing Markdown of the repository (README.md and docs/**/*.md) read the way the docs
// tests need it: fenced code blocks with the `doc-test` directive written just before them, and
// the heading anchors a link may point at.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** README.md, then every .md under docs/, as paths relative to the repository. */
export function markdownFiles(): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(path.join(REPO_ROOT, folder), { withFileTypes: true })) {
      const relative = path.posix.join(folder, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) found.push(relative);
    }
  };
  walk('docs');
  return ['README.md', ...found.sort()];
}

export function readMarkdown(file: string): string {
  return readFileSync(path.join(REPO_ROOT, file), 'utf8');
}

export interface CodeBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word (bash, sh, json…), '' when none. */
  language: string;
  /** The block's text, its fence's indentation removed. */
  code: string;
  /** The text of `<!-- doc-test: … -->` on the line before the fence, or null. */
  directive: string | null;
}

const SHELL_LANGUAGES = new Set(['bash', 'sh', 'shell']);

export function isShell(block: CodeBlock): boolean {
  return SHELL_LANGUAGES.has(block.language);
}

/** Every fenced block of a file, in order. */
export function codeBlocks(file: string, text = readMarkdown(file)): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const open = /^(\s*)(`{3,})\s*([\w-]*)/.exec(line);
    if (!open) continue;
    const [, indent = '', fence = '```', language = ''] = open;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && !lines[end]!.trimStart().startsWith(fence)) {
      body.push(lines[end]!.startsWith(indent) ? lines[end]!.slice(indent.length) : lines[end]!);
      end += 1;
    }
    const before = lines.slice(0, index).reverse().find((candidate) => candidate.trim() !== '') ?? '';
    const directive = /<!--\s*doc-test:\s*([\s\S]*?)\s*-->/.exec(before)?.[1] ?? null;
    blocks.push({ file, line: index + 1, language, code: body.join('\n'), directive });
    index = end;
  }
  return blocks;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{Letter}\p{Number}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a file's headings make (outside code blocks), with GitHub's -1, -2 for repeats. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) { fence = fence === null ? marker : null; continue; }
    if (fence !== null) continue;
    const heading = /^#{1,6}\s+(.*)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = headingAnchor(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
