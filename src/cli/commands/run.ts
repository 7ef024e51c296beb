// `gw run <tool> [args…]`: Claude Code, Codex, Gemini CLI or opencode, pointed at the local
// gateway (started in the background when none answers) for this run only, with the
// tool's own arguments passed through and its exit code returned. `gw token` (token.ts)
// prints the credential gw run gives a tool (local-credential.ts).
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { CliExit, type CliContext } from '../cli-context.js';
import { withStore } from '../state-command.js';
import { credentialFor } from '../local-credential.js';
import { findOrStartGateway, type LocalGateway } from '../local-gateway.js';
import { getLocal } from '../local-get.js';
import { RUNNABLE_TOOLS, isRunnableTool, launchFor, type RunnableTool } from '../tool-launch.js';
import { findCodingTool, notInstalledMessage } from '../find-coding-tool.js';
import { modelForTool, throughHub } from '../serve-banner.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';

/** A model the gateway lists for this credential, of the tool's family if it has one (for gw run's advice). */
async function servedModel(gateway: LocalGateway, credential: string, tool: RunnableTool): Promise<string | null> {
  const answer = await getLocal(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${credential}` }, timeoutMs: 2_000 }).catch(() => null);
  return modelForTool(tool, modelIds(answer?.body ?? '{}'));
}

/** The ids of a /v1/models answer; [] for anything else (the advice then names the provider to add only). */
function modelIds(body: string): string[] {
  let listed: unknown;
  try {
    listed = JSON.parse(body);
  } catch {
    return [];
  }
  const data: unknown[] = typeof listed === 'object' && listed !== null && 'data' in listed && Array.isArray(listed.data) ? listed.data : [];
  return data.flatMap((entry) => (typeof entry === 'object' && entry !== null && 'id' in entry && typeof entry.id === 'string' ? [entry.id] : []));
}

async function runTool(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  // Loaded here: `gw token`, in this same file, starts no process and should not pay for the module.
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new CliExit(127, `${command} is not installed or not on the PATH`) : error));
    // The tool owns the terminal: Ctrl-C goes to it, and gw waits for it to end.
    const ignore = () => undefined;
    process.on('SIGINT', ignore);
    child.once('close', (code, signal) => {
      process.off('SIGINT', ignore);
      resolve(code ?? (signal === 'SIGINT' ? 130 : 1));
    });
  });
}

export function registerRunCommands(program: Command, context: CliContext): void {
  program.command('run')
    .description(`Run a coding tool (${RUNNABLE_TOOLS.join(', ')}) through the local gateway, starting one when none answers; the tool's own arguments follow`)
    .argument('<tool>', RUNNABLE_TOOLS.join(' | '))
    .argument('[args...]', 'passed to the tool as given, options included (gw run claude -p "hi" --model X)')
    .option('--home <dir>', HOME_HELP)
    // Reached only for `gw run --help` and the like: runCli hands `gw run …` to runTool as is, so the
    // tool's own options (-p, --model, -c …) are never parsed by gw.
    .action(async (tool: string, args: string[], options: { home?: string }) => runCodingTool(tool, args, options.home, context));
}

/** `gw run [--home DIR] TOOL [ARGS…]`, argv after `run`: gw's own option first, then the tool's, untouched. */
export async function runFromArgv(argv: readonly string[], context: CliContext): Promise<void> {
  const rest = [...argv];
  let home: string | undefined;
  while (rest[0] === '--home' || rest[0]?.startsWith('--home=')) {
    const flag = rest.shift()!;
    home = flag.includes('=') ? flag.slice(flag.indexOf('=') + 1) : rest.shift();
  }
  const tool = rest.shift();
  if (tool === undefined) throw new CliExit(2, `gw run needs a tool: ${RUNNABLE_TOOLS.join(', ')} (then its own arguments)`);
  if (rest[0] === '--') rest.shift();
  await runCodingTool(tool, rest, home, context);
}

async function runCodingTool(tool: string, args: readonly string[], homeFlag: string | undefined, context: CliContext): Promise<void> {
  if (!isRunnableTool(tool)) throw new CliExit(2, `gw run knows ${RUNNABLE_TOOLS.join(', ')}; not ${tool}`);
  // Looked for first: a missing tool is said before a gateway starts or a key is made.
  const command = await findCodingTool(tool, context.env);
  if (command === null) throw new CliExit(127, notInstalledMessage(tool, context.env));
  const home = context.home(homeFlag);
  const gateway = await findOrStartGateway(context, home);
  const credential = await credentialFor(gateway, context, home);
  // A gateway with only the mock provider cannot serve a tool's default model: ask for mock/echo.
  const mockOnly = !gateway.sidecar && gateway.providers.every((name) => name === 'mock');
  const geminiSettings = tool === 'gemini' ? await readFile(path.join(os.homedir(), '.gemini', 'settings.json'), 'utf8').catch(() => null) : null;
  // A sidecar's hub may not route the tool's own default model name: ask for one the hub said it serves.
  const model = mockOnly ? 'mock/echo' : gateway.sidecar ? modelForTool(tool, throughHub(gateway.hubModels, gateway.providers)) : null;
  // Loaded here, not at the top: the provider probe it brings (undici) would slow `gw token` down.
  const { checkDefaultModelRoutes, checkRouteAnswers, modelInArgs } = await import('../check-route.js');
  const named = gateway.sidecar ? null : modelInArgs(args);
  const state = gateway.sidecar ? null : await withStore(context, home, async (store) => store.snapshot());
  if (named !== null && state !== null) await checkRouteAnswers(named, state, context.env, gateway.providers);
  // No model named or chosen: the tool asks for its own default, which must route here.
  if (named === null && model === null && state !== null) await checkDefaultModelRoutes(tool, state, context.env, gateway.providers, () => servedModel(gateway, credential, tool));
  const launch = launchFor(tool, { url: gateway.url, credential, model, args, geminiSettings, mcp: gateway.mcp, sessionId: randomUUID(), geminiCustomHeaders: context.env.GEMINI_CLI_CUSTOM_HEADERS });
  const folder = await mkdtemp(path.join(os.tmpdir(), `gw-run-${tool}-`));
  try {
    for (const [name, content] of Object.entries(launch.files)) {
      await mkdir(path.dirname(path.join(folder, name)), { recursive: true, mode: 0o700 });
      await writeFile(path.join(folder, name), content, { mode: 0o600 });
    }
    const env = { ...context.env, ...Object.fromEntries(Object.entries(launch.env).map(([name, value]) => [name, value.replace('{dir}', folder)])) };
    const code = await runTool(command, launch.args, env);
    if (code !== 0) throw new CliExit(code, '');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
