// Every `gw …` command README.md and docs/**/*.md show in a shell block is a real command taking
// the options it is shown with (issue 14: "every line the README shows runs as written"). This
// covers the blocks test/docs/doc-blocks.test.ts cannot run here too (a remote hub, PostgreSQL, a
// coding tool): the cheap rot, a renamed command or option, a typo, is caught in every one.
import { expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import type { CliContext } from '../../src/cli/cli-context.js';
import { codeBlocks, isShell, markdownFiles } from '../docs/markdown-files.js';

/** Each `gw …` invocation in the docs' shell blocks (a line may chain several with && or |). */
function documentedCommands(): string[] {
  const commands: string[] = [];
  for (const block of markdownFiles().flatMap((file) => codeBlocks(file)).filter(isShell)) {
    for (const line of block.code.split('\n')) {
      const code = line.replace(/\s+#.*$/, '');
      for (const part of code.split(/&&|\|\||\||;/)) {
        const match = /(?:^|\s)gw\s+(.+)$/.exec(part.trim()) ?? /^gw\s+(.+)$/.exec(part.trim());
        if (match && !part.includes('npx')) commands.push(match[1]!.trim());
      }
    }
  }
  return [...new Set(commands)];
}

async function help(words: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  // GW_URL on a host that is not this machine: a command that would start a gateway (gw run with
  // the tool's words, where --help goes to the tool) fails instead of leaving gw serve running.
  const context: CliContext = { stdout: { write: (chunk) => { text += chunk; } }, stderr: { write: (chunk) => { text += chunk; } }, env: { GW_URL: 'http://gw.invalid' }, home: () => '/nonexistent' };
  const code = await runCli(['node', 'gw', ...words, '--help'], context);
  return { code, text };
}

const commands = documentedCommands();

it('the docs show gw commands (the parser finds them)', () => {
  expect(commands.length).toBeGreaterThan(40);
});

it.each(commands.map((command) => [command]))('gw %s', async (command) => {
  const words = command.split(/\s+/);
  // The command path: leading words that are not options, values or placeholders.
  const pathWords: string[] = [];
  for (const word of words) {
    if (word.startsWith('-') || /[^a-z-]/.test(word)) break;
    pathWords.push(word);
  }
  // gw run hands every word after the tool's name to the tool, --help included: ask gw run itself.
  if (pathWords[0] === 'run') pathWords.splice(1);
  // Drop trailing words that are arguments (an email, a name) rather than subcommands.
  let shown = await help(pathWords);
  while (pathWords.length > 1 && (shown.code !== 0 || !shown.text.includes(`Usage: gw ${pathWords.join(' ')}`))) {
    pathWords.pop();
    shown = await help(pathWords);
  }
  expect(shown.code, `gw ${pathWords.join(' ')} --help`).toBe(0);
  if (pathWords[0] === 'run') return; // gw run passes every option to the tool
  for (const flag of words.filter((word) => /^--[a-z-]+/.test(word)).map((word) => word.split('=')[0]!)) {
    // --store is the program's own option, accepted by every command.
    if (flag === '--store' || flag === '--help') continue;
    expect(shown.text, `gw ${pathWords.join(' ')} has no ${flag}`).toContain(flag);
  }
});
