// `gw settings get [NAME] [--json]`, `gw settings set NAME VALUE`.
import type { Command } from 'commander';
import { CliExit, type CliContext } from '../cli-context.js';
import { RemoteSettingRefused, setSettingRemotely } from '../../admin/remote-settings.js';
import { withStore } from '../state-command.js';
import { SETTING_DEFINITIONS, SETTING_NAMES, assertSettingName, formatSetting, setSetting } from '../../state/settings.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';

interface SettingsGetOptions { json?: boolean; home?: string }

export function registerSettingsCommand(program: Command, context: CliContext): void {
  const settings = program.command('settings').description('Show and change gateway settings');
  settings
    .command('get')
    .description('Show one setting, or all of them')
    .argument('[name]', 'setting name')
    .option('--json', 'print JSON')
    .option('--home <dir>', HOME_HELP)
    .action(async (name: string | undefined, options: SettingsGetOptions) => {
      const current = await withStore(context, options.home, async (store) => {
        if (name !== undefined) assertSettingName(name);
        return store.snapshot().settings;
      });
      if (name !== undefined) {
        const settingName = assertSettingName(name);
        const value = current[settingName];
        return context.stdout.write(options.json ? `${JSON.stringify(value)}\n` : `${formatSetting(settingName, value)}\n`);
      }
      if (options.json) {
        const known = Object.fromEntries(SETTING_NAMES.map((settingName) => [settingName, current[settingName]]));
        return context.stdout.write(`${JSON.stringify(known, null, 2)}\n`);
      }
      const width = Math.max(...SETTING_NAMES.map((settingName) => settingName.length));
      context.stdout.write(SETTING_NAMES.map((settingName) => `${settingName.padEnd(width)}  ${formatSetting(settingName, current[settingName])}\n`).join(''));
    });
  settings
    .command('set')
    .description('Change a setting; a running gateway picks it up within a second (trusted_proxies, audit_fsync and refused_burst_window_seconds at its next start)')
    .argument('<name>', 'setting name')
    .argument('<value>', 'new value')
    .option('--home <dir>', HOME_HELP)
    .addHelpText('after', `\nSettings:\n${SETTING_NAMES.map((settingName) => `  ${settingName}: ${SETTING_DEFINITIONS[settingName].description}`).join('\n')}\n`)
    .action(async (name: string, value: string, options: { home?: string }) => {
      const { stored, notes } = await withStore(context, options.home, async (store) => {
        const settingName = assertSettingName(name);
        // An admin's remote change (the hub's live store): the rules of an admin token, secrets bound to their host.
        if (context.store !== undefined) {
          const set = await setSettingRemotely(store, settingName, value).catch((error: unknown) => {
            throw error instanceof RemoteSettingRefused ? new CliExit(2, error.message) : error;
          });
          return { stored: formatSetting(settingName, set.value as never), notes: set.notes };
        }
        return { stored: formatSetting(settingName, await setSetting(store, settingName, value)), notes: [] };
      });
      context.stdout.write(`${name} = ${stored}\n${notes.map((note) => `${note}\n`).join('')}`);
    });
}

