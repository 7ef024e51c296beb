// The rules of CONVENTIONS.md ("Which way imports run") that dependency-cruiser cannot
// see, because they are property reads and calls rather than imports.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../../src');

/** Where the process environment may be read: config/, and the process context main.ts builds once and injects. */
const ENV_READERS = /^(config\/|cli\/cli-context\.ts$)/;
const ENV_READ = /\bprocess\s*(\.\s*env\b|\[\s*['"`]env['"`]\s*\])|\{[^}]*\benv\b[^}]*\}\s*=\s*process\b/;

/** Pure code: decisions and translation, with the clock and randomness injected. */
const PURE = /^(formats|policy|dlp|routing|canonical|streaming)\/|^audit\/(chain|verify)\.ts$|^errors\.ts$/;
const CLOCK_OR_RANDOMNESS = /\bDate\.now\b|\bnew Date\(\s*\)|\bMath\.random\b|\bperformance\.now\b|\bprocess\.hrtime\b|\brandom(UUID|Bytes|Int|Fill|FillSync)\b|\bgetRandomValues\b|\bset(Timeout|Interval|Immediate)\s*\(/;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Comments name these things to explain them; only code counts. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, '')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

function offenders(files: Array<[string, string]>, allowed: RegExp | null, within: RegExp | null, pattern: RegExp): string[] {
  return files
    .filter(([name]) => (within === null || within.test(name)) && (allowed === null || !allowed.test(name)))
    .flatMap(([name, text]) => withoutComments(text).split('\n').flatMap((line, index) => (pattern.test(line) ? [`${name}:${index + 1}: ${line.trim()}`] : [])));
}

const files: Array<[string, string]> = sourceFiles(src).map((file) => [path.relative(src, file).split(path.sep).join('/'), readFileSync(file, 'utf8')]);

describe('source rules dependency-cruiser cannot check', () => {
  it('only config/ (and the process context main.ts builds) reads process.env', () => {
    expect(offenders(files, ENV_READERS, null, ENV_READ)).toEqual([]);
  });

  it('pure folders use no clock, timer or randomness of their own', () => {
    expect(offenders(files, null, PURE, CLOCK_OR_RANDOMNESS)).toEqual([]);
  });

  it('the checks see what they look for, and not inside comments', () => {
    const planted: Array<[string, string]> = [
      ['server/a.ts', "const port = process.env.PORT;\n// process.env in a comment\nconst { env } = process;"],
      ['policy/b.ts', "const at = Date.now();\n/* Math.random() */\nconst id = randomUUID();\nconst parsed = new Date(text);"],
    ];
    expect(offenders(planted, ENV_READERS, null, ENV_READ)).toEqual(['server/a.ts:1: const port = process.env.PORT;', 'server/a.ts:3: const { env } = process;']);
    expect(offenders(planted, null, PURE, CLOCK_OR_RANDOMNESS)).toEqual(['policy/b.ts:1: const at = Date.now();', 'policy/b.ts:3: const id = randomUUID();']);
  });
});
