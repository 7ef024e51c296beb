// Where `gw run` finds a coding tool: on the PATH first (the person's own install), then
// where gw's own setup puts them (scripts/ensure-coding-tools.sh: $GW_CODING_TOOLS_DIR,
// else $XDG_CACHE_HOME or ~/.cache, then gw/coding-tools). Missing everywhere: the one
// command that installs it, said before any gateway starts or key is made.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RunnableTool } from './tool-launch.js';

/** The npm package of each tool (test/e2e/coding-tools/tools/package.json pins the versions gw is tested with). */
const TOOL_PACKAGES: Record<RunnableTool, string> = {
  claude: '@anthropic-ai/claude-code',
  codex: '@openai/codex',
  gemini: '@google/gemini-cli',
  opencode: 'opencode-ai',
};

function codingToolsDir(env: NodeJS.ProcessEnv): string {
  return env.GW_CODING_TOOLS_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(env.HOME ?? os.homedir(), '.cache'), 'gw', 'coding-tools');
}

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(() => true, () => false);
}

/** The command to spawn: the bare name when the PATH has it, the full path in gw's tools folder, or null. */
export async function findCodingTool(tool: RunnableTool, env: NodeJS.ProcessEnv): Promise<string | null> {
  const names = process.platform === 'win32' ? [`${tool}.cmd`, `${tool}.exe`, tool] : [tool];
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of names) if (await isExecutable(path.join(dir, name))) return tool;
  }
  const bin = path.join(codingToolsDir(env), 'node_modules', '.bin');
  for (const name of names) if (await isExecutable(path.join(bin, name))) return path.join(bin, name);
  return null;
}

/** What gw run says when the tool is nowhere: the one command that installs it. */
export function notInstalledMessage(tool: RunnableTool, env: NodeJS.ProcessEnv): string {
  return `${tool} is not installed (not on the PATH, nor in ${path.join(codingToolsDir(env), 'node_modules', '.bin')}): install it with\n  npm install -g ${TOOL_PACKAGES[tool]}`;
}
