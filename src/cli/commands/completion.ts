// `gw completion <bash|zsh|fish>`: prints the completion script for the whole program, so a user
// can `source <(gw completion bash)` without the packaged completions/ files.
import { Argument, type Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { completionShells, generateCompletion, type CompletionShell } from '../completions.js';

export function registerCompletionCommand(program: Command, context: CliContext): Command {
  return program
    .command('completion')
    .description('Print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell to complete for').choices(completionShells))
    .addHelpText('after', [
      '',
      'Examples:',
      '  source <(gw completion bash)                 # bash, this shell only',
      '  gw completion zsh > "${fpath[1]}/_gw"        # zsh, then restart the shell',
      '  gw completion fish > ~/.config/fish/completions/gw.fish',
    ].join('\n'))
    .action((shell: CompletionShell, _options: unknown, command: Command) => {
      context.stdout.write(generateCompletion(rootOf(command), shell));
    });
}

/** The script must cover every command, not just the subtree this command was added to. */
function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}
