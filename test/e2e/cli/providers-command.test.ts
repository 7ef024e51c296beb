import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { CliExit, type CliContext } from '../../../src/cli/cli-context.js';
import { registerProvidersCommand } from '../../../src/cli/commands/providers.js';
import { makeCliHome, type CommandResult } from '../../cli/run-state-command.js';

async function runProviders(args: string[], home: string, env: NodeJS.ProcessEnv = {}): Promise<CommandResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const context: CliContext = {
    stdout: { write: (text) => void stdout.push(text) },
    stderr: { write: (text) => void stderr.push(text) },
    env,
    home: (flag) => path.resolve(flag ?? home),
  };
  const program = new Command('gw').exitOverride().configureOutput({ writeOut: () => undefined, writeErr: (text) => void stderr.push(text) });
  registerProvidersCommand(program, context);
  let error: unknown = null;
  try {
    await program.parseAsync(['providers', ...args], { from: 'user' });
  } catch (caught) {
    error = caught;
  }
  return { stdout: stdout.join(''), stderr: stderr.join(''), error };
}

function exitCode(error: unknown): number | null {
  if (error instanceof CliExit) return error.exitCode;
  if (error instanceof CommanderError) return 2;
  return error === null ? 0 : null;
}

const servers: Array<{ close(): void }> = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function startServer(status: number, seen: IncomingHttpHeaders[] = [], paths: string[] = []): Promise<string> {
  const server = createServer((request, response) => {
    seen.push(request.headers);
    paths.push(request.url ?? '');
    response.writeHead(status, { 'content-type': 'application/json' }).end('{"data":[]}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('gw providers add|list|remove', () => {
  it('stores a key given with --api-key-env as a reference, never the value', async () => {
    const home = await makeCliHome();
    const env = { MY_GROQ: 'gsk-secret-value' };
    const added = await runProviders(['add', 'fast', '--preset', 'groq', '--api-key-env', 'MY_GROQ'], home, env);
    expect(added.error).toBeNull();
    expect(added.stdout).toBe('added provider fast (openai-compatible, https://api.groq.com/openai/v1, key env:MY_GROQ)\nfast takes fast/MODEL only\n');
    const file = await readFile(path.join(home, 'state.json'), 'utf8');
    expect(file).not.toContain('gsk-secret-value');
    expect(JSON.parse(file).providers).toEqual([
      // The key is bound to the host it was set for: moved elsewhere, it is not sent (src/state/bound-host.ts).
      { name: 'fast', kind: 'openai-compatible', base_url: 'https://api.groq.com/openai/v1', api_key: 'env:MY_GROQ', key_host: 'api.groq.com', preset: 'groq' },
    ]);
    expect((await stat(path.join(home, 'state.json'))).mode & 0o777).toBe(0o600);
  });

  it('warns that a literal key is stored, and never prints it', async () => {
    const home = await makeCliHome();
    const added = await runProviders(['add', 'az', '--kind', 'azure', '--base-url', 'https://r.openai.azure.com', '--api-key', 'azure-literal-key', '--api-version', '2025-01-01-preview'], home);
    expect(added.error).toBeNull();
    expect(added.stderr).toMatch(/stored as is in state\.json \(mode 0600\); --api-key-env/);
    // Azure OpenAI serves OpenAI's models: with no OpenAI configured, it answers their bare names.
    expect(added.stdout).toBe('added provider az (azure, https://r.openai.azure.com, key set)\naz takes az/MODEL and the bare model names gpt-…, o1, o3, o4, chatgpt-…, text-embedding-…\n');
    const env = { OPENAI_API_KEY: 'sk-openai-env-secret' };
    const listed = await runProviders(['list'], home, env);
    const json = await runProviders(['list', '--json'], home, env);
    for (const output of [listed.stdout, json.stdout, listed.stderr]) {
      expect(output).not.toContain('azure-literal-key');
      expect(output).not.toContain('sk-openai-env-secret');
    }
    expect(listed.stdout.split('\n')[0]).toMatch(/^NAME\s+KIND\s+BASE URL\s+SOURCE\s+KEY\s+STATUS$/);
    expect(JSON.parse(json.stdout)).toEqual([
      { name: 'az', kind: 'azure', base_url: 'https://r.openai.azure.com', source: 'state', key: 'set', api_version: '2025-01-01-preview', in_use: true },
      { name: 'mock', kind: 'mock', base_url: 'mock:', source: 'built-in', key: 'none', in_use: true },
      { name: 'openai', kind: 'openai', base_url: 'https://api.openai.com/v1', source: 'environment', key: 'env:OPENAI_API_KEY', in_use: true },
    ]);
  });

  it('shows a state provider whose variable is unset as skipped, with the reason', async () => {
    const home = await makeCliHome();
    await runProviders(['add', 'ant', '--kind', 'anthropic', '--api-key-env', 'ANT_KEY'], home);
    const listed = await runProviders(['list'], home);
    expect(listed.stdout).toMatch(/^ant\s+anthropic\s+https:\/\/api\.anthropic\.com\s+state\s+env:ANT_KEY\s+skipped$/m);
    expect(listed.stderr).toBe('gw: provider ant (state.json): its key is env:ANT_KEY, which is not set; skipped\n');
  });

  it('refuses bad input with exit 2 and a duplicate with exit 1', async () => {
    const home = await makeCliHome();
    expect(exitCode((await runProviders(['add', 'x', '--kind', 'nope'], home)).error)).toBe(2);
    expect(exitCode((await runProviders(['add', 'x', '--kind', 'gateway'], home)).error)).toBe(2);
    expect(exitCode((await runProviders(['add', 'Bad Name', '--kind', 'openai'], home)).error)).toBe(2);
    expect(exitCode((await runProviders(['add', 'mock', '--kind', 'openai'], home)).error)).toBe(2);
    expect(exitCode((await runProviders(['add', 'x', '--kind', 'openai', '--api-key', 'a', '--api-key-env', 'B'], home)).error)).toBe(2);
    expect(exitCode((await runProviders(['add', 'x', '--preset', 'nope'], home)).error)).toBe(2);
    await runProviders(['add', 'x', '--kind', 'openai'], home);
    const duplicate = await runProviders(['add', 'x', '--kind', 'openai'], home);
    expect(exitCode(duplicate.error)).toBe(1);
    expect((duplicate.error as Error).message).toBe('provider "x" already exists: gw providers remove x first');
  });

  it('removes a state provider, and explains what it cannot remove', async () => {
    const home = await makeCliHome();
    await runProviders(['add', 'local', '--preset', 'ollama'], home);
    expect((await runProviders(['remove', 'local'], home)).stdout).toBe('removed provider local\n');
    expect(JSON.parse(await readFile(path.join(home, 'state.json'), 'utf8')).providers).toEqual([]);
    const fromEnv = await runProviders(['remove', 'openai'], home, { OPENAI_API_KEY: 'k' });
    expect(exitCode(fromEnv.error)).toBe(1);
    expect((fromEnv.error as Error).message).toBe('provider openai comes from the environment (OPENAI_API_KEY); unset that in the shell that runs gw serve');
    expect((await runProviders(['remove', 'mock'], home)).error).toBeInstanceOf(CliExit);
    expect((await runProviders(['remove', 'ghost'], home, {})).error).toBeInstanceOf(CliExit);
  });
});

describe('gw providers test', () => {
  it('sends one authenticated model-list request and prints status and latency', async () => {
    const home = await makeCliHome();
    const seen: IncomingHttpHeaders[] = [];
    const paths: string[] = [];
    const base = await startServer(200, seen, paths);
    await runProviders(['add', 'ant', '--kind', 'anthropic', '--base-url', base, '--api-key-env', 'ANT_KEY'], home);
    const tested = await runProviders(['test', 'ant'], home, { ANT_KEY: 'sk-ant-secret' });
    expect(tested.error).toBeNull();
    expect(tested.stdout).toMatch(new RegExp(`^ant: HTTP 200 in \\d+ ms \\(GET ${base}/v1/models\\)\\n$`));
    expect(tested.stdout).not.toContain('sk-ant-secret');
    expect(paths).toEqual(['/v1/models']);
    expect(seen[0]).toMatchObject({ 'x-api-key': 'sk-ant-secret', 'anthropic-version': '2023-06-01' });
  });

  it('exits 1 on a refusal or no response, and probes each kind\'s own list', async () => {
    const home = await makeCliHome();
    const paths: string[] = [];
    const base = await startServer(401, [], paths);
    await runProviders(['add', 'o', '--kind', 'openai', '--base-url', `${base}/v1`], home);
    await runProviders(['add', 'g', '--kind', 'gemini', '--base-url', base], home);
    const refused = await runProviders(['test', 'o'], home);
    expect(exitCode(refused.error)).toBe(1);
    expect((refused.error as Error).message).toMatch(/^o: HTTP 401 in \d+ ms \(GET .*\/v1\/models\): the key was refused$/);
    await runProviders(['test', 'g'], home);
    expect(paths).toEqual(['/v1/models', '/v1beta/models']);
    await runProviders(['add', 'dead', '--kind', 'openai', '--base-url', 'http://127.0.0.1:9/v1'], home);
    const dead = await runProviders(['test', 'dead', '--timeout', '2'], home);
    expect(exitCode(dead.error)).toBe(1);
    expect((dead.error as Error).message).toMatch(/^dead: no response \(ECONNREFUSED\)/);
    expect((await runProviders(['test', 'mock'], home)).stdout).toBe('mock: built in, answers in-process\n');
  });
});
