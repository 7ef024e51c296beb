// `gw claude-settings set|show|clear [--team T]`: Claude Code's managed settings, per team or
// for everyone, that a signed-in Claude Code reads from the hub at GET /managed/settings
// (docs/claude-code-sign-in.md). Each change is an admin.change record (the CLI's outbox).
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { CliExit } from '../cli-context.js';
import { withStore } from '../state-command.js';
import { clearClaudeSettings, claudeSettingsScope, parseClaudeSettings, setClaudeSettings } from '../../state/claude-settings.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';
const TEAM_HELP = 'the team whose members receive them (default: everyone without settings of their own team)';

interface ScopeOptions { team?: string; home?: string }

function scopeName(team: string | undefined): string {
  return team === undefined ? 'everyone' : `team ${team}`;
}

async function readSettingsFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new CliExit(2, `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function registerClaudeSettingsCommand(program: Command, context: CliContext): void {
  const command = program.command('claude-settings').description('Claude Code\'s managed settings per team, served to people signed in with Claude Code\'s /login');
  command.command('set')
    .description('Set the managed settings (a JSON object, as in managed-settings.json) of a team or of everyone')
    .option('--file <path>', 'the settings file (JSON)')
    .option('--json <settings>', 'the settings themselves, as JSON (what a remote command with --hub takes)')
    .option('--team <name>', TEAM_HELP)
    .option('--home <dir>', HOME_HELP)
    .action(async (options: ScopeOptions & { file?: string; json?: string }) => {
      if ((options.file === undefined) === (options.json === undefined)) throw new CliExit(2, 'give the settings with --file PATH or --json TEXT (one of them)');
      const text = options.json ?? await readSettingsFile(options.file ?? '');
      await withStore(context, options.home, async (store) => setClaudeSettings(store, options.team, parseClaudeSettings(text)));
      context.stdout.write(`set Claude Code managed settings for ${scopeName(options.team)}\n`);
    });
  command.command('show')
    .description('Print the stored managed settings of a team or of everyone (as set; gw adds the model allow-list and telemetry when serving)')
    .option('--team <name>', TEAM_HELP)
    .option('--home <dir>', HOME_HELP)
    .action(async (options: ScopeOptions) => {
      const entry = await withStore(context, options.home, async (store) => {
        const state = store.snapshot();
        const scope = claudeSettingsScope(state, options.team);
        return (state.claude_settings ?? []).find((candidate) => candidate.scope === scope) ?? null;
      });
      if (entry === null) return context.stderr.write(`no Claude Code managed settings for ${scopeName(options.team)}\n`);
      return context.stdout.write(`${JSON.stringify(entry.settings, null, 2)}\n`);
    });
  command.command('clear')
    .description('Remove the managed settings of a team or of everyone')
    .option('--team <name>', TEAM_HELP)
    .option('--home <dir>', HOME_HELP)
    .action(async (options: ScopeOptions) => {
      const removed = await withStore(context, options.home, (store) => clearClaudeSettings(store, options.team));
      context.stdout.write(removed ? `cleared Claude Code managed settings for ${scopeName(options.team)}\n` : `${scopeName(options.team)} had no Claude Code managed settings\n`);
    });
}
