// The committed completions/ must match what the program generates, and the scripts must work in
// the real shells: bash always (CI has it), zsh and fish when installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Argument, Command, Option } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliContext } from '../../../src/cli/cli-context.js';
import { registerCompletionCommand } from '../../../src/cli/commands/completion.js';
import { completionFileNames, completionShells, generateCompletion, type CompletionShell } from '../../../src/cli/completions.js';
import { buildProgram } from '../../../src/cli/main.js';

const completionsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'completions');
const scratch = mkdtempSync(path.join(tmpdir(), 'gw-completions-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function createTestContext(): CliContext & { output: string[] } {
  const output: string[] = [];
  return { output, stdout: { write: (text) => void output.push(text) }, stderr: { write: () => undefined }, env: {}, home: () => scratch };
}

/** A program shaped like gw's nouns and verbs, with every kind of option and argument. */
function buildSampleProgram(context: CliContext): Command {
  const program = new Command('gw').version('0.1.0').exitOverride();
  const keys = program.command('keys').alias('key').description('manage virtual keys');
  keys.command('create').description('create a virtual key')
    .option('-n, --name <name>', 'a label for the key')
    .addOption(new Option('--provider <provider>', 'the provider it may use').choices(['openai', 'anthropic', 'google']))
    .option('--no-expiry', "the key doesn't expire");
  keys.command('list').description('list virtual keys').option('--json', 'print JSON');
  keys.command('revoke <id>').description('revoke a key');
  program.command('serve').description('run the gateway').option('-p, --port <number>', 'port to listen on').option('--home <dir>', '$GW_HOME');
  program.command('audit').description('audit log').command('verify').addArgument(new Argument('[files...]', 'logs').choices(['a.log', 'b.log']));
  registerCompletionCommand(program, context);
  return program;
}


/** Sources the script in bash, fills COMP_WORDS/COMP_CWORD as readline would, and returns COMPREPLY. */
function completeInBash(script: string, line: string[]): string[] {
  const file = path.join(scratch, 'gw.bash');
  writeFileSync(file, script);
  const program = 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gw; printf "%s\\n" "${COMPREPLY[@]}"';
  const output = execFileSync('bash', ['--norc', '--noprofile', '-c', program, 'bash', file, ...line], { encoding: 'utf8' });
  return output.split('\n').filter((word) => word !== '');
}

describe('committed completions', () => {
  const program = buildProgram(createTestContext());
  it.each(completionShells)('completions/ for %s match the program', (shell: CompletionShell) => {
    const file = path.join(completionsFolder, completionFileNames[shell]);
    const committed = existsSync(file) ? readFileSync(file, 'utf8') : `(missing: ${file})`;
    expect(generateCompletion(program, shell), 'completions are stale: run npm run completions').toBe(committed);
  });
});

describe('generateCompletion', () => {
  const program = buildSampleProgram(createTestContext());

  it.each(completionShells)('%s covers nested subcommands, aliases, flags and choices', (shell: CompletionShell) => {
    const script = generateCompletion(program, shell);
    for (const word of ['keys', 'key', 'create', 'list', 'revoke', 'serve', 'verify', 'completion', 'port', 'provider', 'anthropic', 'no-expiry', 'a.log', 'fish']) {
      expect(script, `${shell} script lacks ${word}`).toContain(word);
    }
  });

  it('is stable: same program, same bytes, no timestamps', () => {
    const again = buildSampleProgram(createTestContext());
    for (const shell of completionShells) expect(generateCompletion(again, shell)).toBe(generateCompletion(program, shell));
  });

  it('leaves out hidden commands and options', () => {
    const withHidden = buildSampleProgram(createTestContext());
    withHidden.addCommand(new Command('secret-command'), { hidden: true });
    withHidden.addOption(new Option('--secret-flag').hideHelp());
    for (const shell of completionShells) expect(generateCompletion(withHidden, shell)).not.toMatch(/secret-/);
  });

  it('`gw completion <shell>` prints the script of the root program', async () => {
    const context = createTestContext();
    await buildSampleProgram(context).parseAsync(['node', 'gw', 'completion', 'zsh']);
    expect(context.output.join('')).toBe(generateCompletion(program, 'zsh'));
    expect(context.output.join('')).toMatch(/^#compdef gw\n/);
  });
});

describe('the bash script in bash', () => {
  const script = generateCompletion(buildSampleProgram(createTestContext()), 'bash');
  it.each([
    [['gw', 'ke'], ['keys']],
    [['gw', 'keys', ''], ['create', 'list', 'revoke', 'help']],
    [['gw', 'key', 'c'], ['create']],
    [['gw', 'keys', 'create', '--pro'], ['--provider']],
    [['gw', 'keys', 'create', '--provider', ''], ['openai', 'anthropic', 'google']],
    [['gw', 'keys', 'create', '--provider', '=', 'a'], ['anthropic']],
    [['gw', 'serve', '--port', '8080', '-'], ['-p', '--port', '--home', '-h', '--help']],
    [['gw', '--version', 'se'], ['serve']],
    [['gw', 'audit', 'verify', 'a.log', ''], ['a.log', 'b.log']],
    [['gw', 'completion', ''], ['bash', 'zsh', 'fish']],
    [['gw', 'help', 'k'], ['keys']],
  ])('%j completes to %j', (line, expected) => {
    expect(completeInBash(script, line)).toEqual(expected);
  });

  it('completes the real program: every noun, and the verbs under each', () => {
    const real = buildProgram(createTestContext());
    const realScript = generateCompletion(real, 'bash');
    const names = (command: Command): string[] => command.commands.map((child) => child.name());
    expect(completeInBash(realScript, ['gw', ''])).toEqual(expect.arrayContaining(names(real)));
    for (const noun of real.commands.filter((child) => child.commands.length > 0)) {
      expect(completeInBash(realScript, ['gw', noun.name().slice(0, -1)])).toContain(noun.name());
      expect(completeInBash(realScript, ['gw', noun.name(), ''])).toEqual(expect.arrayContaining(names(noun)));
    }
  });

  it('passes bash -n', () => {
    const file = path.join(scratch, 'syntax.bash');
    writeFileSync(file, script);
    expect(spawnSync('bash', ['-n', file]).status).toBe(0);
  });
});

describe('the zsh script in zsh', () => {
  it('passes zsh -n', () => {
    const file = path.join(scratch, '_gw');
    writeFileSync(file, generateCompletion(buildSampleProgram(createTestContext()), 'zsh'));
    const result = spawnSync('zsh', ['-n', file], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('the fish script in fish', () => {
  const file = path.join(scratch, 'gw.fish');
  const completeInFish = (line: string): string[] => {
    writeFileSync(file, generateCompletion(buildSampleProgram(createTestContext()), 'fish'));
    const output = execFileSync('fish', ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', file, line], { encoding: 'utf8' });
    return output.split('\n').filter((row) => row !== '').map((row) => row.split('\t')[0] ?? '');
  };
  it('offers subcommands, then nested subcommands, then option choices', () => {
    expect(completeInFish('gw ke')).toEqual(['keys']);
    expect(completeInFish('gw keys ')).toEqual(['create', 'help', 'list', 'revoke']);
    expect(completeInFish('gw keys create --provider ')).toEqual(['anthropic', 'google', 'openai']);
  });
});
