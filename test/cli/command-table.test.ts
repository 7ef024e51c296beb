// run-cli.ts loads only the command being run and puts stand-ins (command-table.ts) for the
// others: the root help, a typo's answer and each command's own help must be those of the whole
// program (whole-program.ts), and the table must name exactly what each group's code registers.
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/cli-context.js';
import { COMMAND_GROUPS, commandNameIn, groupOf } from '../../src/cli/command-table.js';
import { createRootProgram } from '../../src/cli/root-program.js';
import { runCli } from '../../src/cli/run-cli.js';
import { buildProgram } from '../../src/cli/whole-program.js';

function quietContext(): CliContext & { output(): string } {
  let text = '';
  return {
    stdout: { write: (chunk) => { text += chunk; } }, stderr: { write: (chunk) => { text += chunk; } },
    env: { GW_URL: 'http://gw.invalid' }, home: () => '/nonexistent', output: () => text,
  };
}

async function runQuietly(words: string[]): Promise<{ code: number; text: string }> {
  const context = quietContext();
  const code = await runCli(['node', 'gw', ...words], context);
  return { code, text: context.output() };
}

/** What the whole program answers, parsed in-process the way runCli does. */
async function wholeProgramAnswer(words: string[]): Promise<{ code: number; text: string }> {
  const context = quietContext();
  try {
    await buildProgram(context).parseAsync(['node', 'gw', ...words]);
    return { code: 0, text: context.output() };
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { code: ['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code) ? 0 : 2, text: context.output() };
  }
}

describe('the fast start', () => {
  it.each([
    [['--help']], [['--version']], [['help']], [['kyes']], [['keys', '--help']], [['help', 'policy']], [['token', '--help']],
    [['audit', 'verify', '--help']], [['policy', 'set', '--help']], [['--store', 'postgres://x/y', 'teams', '--help']], [['teams', 'nope']],
  ])('gw %j answers as the whole program does', async (words) => {
    expect(await runQuietly(words)).toEqual(await wholeProgramAnswer(words));
  });

  it('each group registers exactly the commands its table entry shows, as the root help shows them', async () => {
    const whole = buildProgram(quietContext());
    const help = whole.createHelp();
    const shown = new Map(whole.commands.map((command) => [command.name(), [help.subcommandTerm(command), command.description()]]));
    // The table lists every command of the whole program, in its order.
    expect(COMMAND_GROUPS.flatMap((group) => group.commands.map(([term, description]) => [term.split(' ')[0], [term, description]])))
      .toEqual([...shown.entries()]);
    for (const group of COMMAND_GROUPS) {
      if (group.load === null) continue;
      const program = createRootProgram(quietContext());
      for (const register of await group.load()) register(program, quietContext());
      expect(program.commands.map((command) => command.name())).toEqual(group.commands.map(([term]) => term.split(' ')[0]));
    }
  });

  it('finds the command past the global --store and past help', () => {
    expect(commandNameIn(['--store', 'postgres://h/db', 'keys', 'list'])).toBe('keys');
    expect(commandNameIn(['--store=postgres://h/db', 'keys'])).toBe('keys');
    expect(commandNameIn(['help', 'token'])).toBe('token');
    expect(commandNameIn(['--version'])).toBeUndefined();
    expect(groupOf('whoami')?.commands.map(([term]) => term.split(' ')[0])).toEqual(['login', 'logout', 'whoami']);
  });
});
