// shellQuote (src/shell-quote.ts): whatever the text, a POSIX shell reads the quoted word back
// as exactly that text, and runs nothing in it. Checked with a real sh, not by comparing strings.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { shellCommand, shellQuote } from '../../../src/shell-quote.js';

const run = promisify(execFile);
const WORDS = ['alice@example.com', "o'neil@example.com", '$(id)', '`id`', 'a b', '', "'", "''", 'x;rm -rf ~', '${HOME}', '\\', '*', '-n', 'é✓', '"q"', 'new\nline'];

it('leaves plain words as they are', () => {
  expect(shellCommand(['gw', 'device', 'approve', 'BCDF-GHJK', '--person', 'alice@example.com'])).toBe('gw device approve BCDF-GHJK --person alice@example.com');
  expect(shellQuote('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080/v1');
  expect(shellQuote("it's")).toBe(`'it'\\''s'`);
});

it('gives sh back every word exactly, as separate arguments', async () => {
  const { stdout } = await run('sh', ['-c', `printf '%s\\0' ${shellCommand(WORDS)}`], { env: { PATH: process.env.PATH, HOME: '/nonexistent-home' } });
  expect(stdout.split('\0').slice(0, -1)).toEqual(WORDS);
});
