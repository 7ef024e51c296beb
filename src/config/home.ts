// Where gw keeps its state: --home, then GW_HOME, then the platform's config folder.
import os from 'node:os';
import path from 'node:path';

function defaultHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'gw');
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming'), 'gw');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'gw');
}

export function resolveHome(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(flag ?? env.GW_HOME ?? defaultHome(env));
}
