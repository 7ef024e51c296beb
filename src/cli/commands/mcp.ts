// gw mcp add|list|remove|test: the MCP servers gw's /mcp fronts. A remote server is a URL
// (streamable HTTP, or --transport sse for the older transport) with headers gw sends it; a
// local one is a command gw starts as a child process (stdio) with the variables it needs.
// Secret values belong in gw's environment, as provider keys do: `--header-env
// Authorization=GITHUB_MCP_AUTH` (or `--header Authorization=env:GITHUB_MCP_AUTH`) stores the
// reference, and the value is read only when gw connects, never printed or logged.
import { maskSecretWords } from '../../dlp/mask-secret-words.js';
import type { Command } from 'commander';
import { maskUrlCredentials } from '../../mask-url-credentials.js';
import { MCP_SERVER_NAME, type StoredMcpServer } from '../../state/mcp-servers.js';
import { hostOf } from '../../state/bound-host.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { formatTable, withStore } from '../state-command.js';
import { registerMcpTest } from './mcp-test.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';

interface AddOptions { url?: string; transport?: string; header?: string[]; headerEnv?: string[]; command?: string; env?: string[]; home?: string }

function pairs(values: readonly string[] | undefined, what: string): Record<string, string> {
  const map: Record<string, string> = {};
  for (const value of values ?? []) {
    const at = value.indexOf('=');
    if (at <= 0) throw new CliExit(2, `${what} takes NAME=VALUE (a value may be env:VARIABLE); got ${value}`);
    map[value.slice(0, at)] = value.slice(at + 1);
  }
  return map;
}

/** A command line split like a shell would for simple quoting ("a b" and 'a b' stay one word). */
function words(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]!);
}

/** What listings show: references stay references; a literal header value is never printed. */
function shown(value: string): string {
  return value.startsWith('env:') ? value : '(literal, hidden)';
}

export function registerMcpCommand(program: Command, context: CliContext): void {
  const mcp = program.command('mcp').description('MCP servers behind gw\'s /mcp: tools, prompts and resources under the same keys, policy, DLP and audit');
  mcp.command('add')
    .description('Add (or replace) a server: --url for a remote one, --command for a local one gw starts')
    .argument('<name>', 'lower-case letters, digits and hyphens: its tools become NAME__tool')
    .option('--url <url>', 'a remote server (streamable HTTP)')
    .option('--transport <kind>', 'http (default) or sse (the older transport) for --url')
    .option('--header-env <name=variable...>', 'a header gw sends, read from this environment variable of gw serve (stored as env:VARIABLE), e.g. Authorization=GITHUB_MCP_AUTH')
    .option('--header <name=value...>', 'a header gw sends (value or env:VARIABLE); prefer --header-env for secrets')
    .option('--command <line>', 'a local server gw starts as a child process (stdio), e.g. "npx -y @modelcontextprotocol/server-filesystem /srv"')
    .option('--env <name=value...>', 'a variable for the child (value or env:VARIABLE)')
    .option('--home <dir>', HOME_HELP)
    .action(async (name: string, options: AddOptions) => {
      if (!MCP_SERVER_NAME.test(name)) throw new CliExit(2, `invalid MCP server name "${name}": lower-case letters, digits and single hyphens`);
      if ((options.url === undefined) === (options.command === undefined)) throw new CliExit(2, 'give either --url (a remote server) or --command (a local one)');
      const transport = options.command !== undefined ? 'stdio' : options.transport ?? 'http';
      if (transport !== 'stdio' && transport !== 'http' && transport !== 'sse') throw new CliExit(2, '--transport is http or sse');
      if (options.url !== undefined && !/^https?:\/\//.test(options.url)) throw new CliExit(2, `--url takes an http(s) URL; got ${options.url}`);
      if (options.command !== undefined && (options.header !== undefined || options.headerEnv !== undefined)) throw new CliExit(2, '--header and --header-env are for a remote server (--url); a local one takes --env');
      const fromEnv = Object.fromEntries(Object.entries(pairs(options.headerEnv, '--header-env')).map(([header, variable]) => {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) throw new CliExit(2, `--header-env takes NAME=VARIABLE (an environment variable name); got ${header}=${variable}`);
        return [header, `env:${variable}`];
      }));
      const headers = { ...pairs(options.header, '--header'), ...fromEnv };
      const credentialHost = options.url !== undefined && Object.keys(headers).length > 0 ? hostOf(options.url) : null;
      const server: StoredMcpServer = {
        name, transport, created_at: new Date().toISOString(),
        ...(options.url !== undefined ? { url: options.url, headers, ...(credentialHost === null ? {} : { credential_host: credentialHost }) } : {}),
        ...(options.command !== undefined ? { command: words(options.command), env: pairs(options.env, '--env') } : {}),
      };
      const replaced = await withStore(context, options.home, (store) => store.update((draft) => {
        const before = (draft.mcp_servers ?? []).find((existing) => existing.name === name);
        draft.mcp_servers = [...(draft.mcp_servers ?? []).filter((existing) => existing.name !== name), server];
        return before;
      }));
      context.stdout.write(`added MCP server ${name} (${transport}); its tools are ${name}__… at /mcp\n`);
      // Headers are never carried over from the server replaced: say which were dropped, so none is thought kept.
      const dropped = Object.keys(replaced?.headers ?? {}).filter((header) => !Object.hasOwn(headers, header));
      if (dropped.length > 0) context.stdout.write(`the header${dropped.length === 1 ? '' : 's'} ${dropped.join(', ')} of the server it replaces ${dropped.length === 1 ? 'was' : 'were'} dropped (give ${dropped.length === 1 ? 'it' : 'them'} again with --header)\n`);
    });
  mcp.command('list').description('List MCP servers (header and variable values only as env: references)')
    .option('--json', 'print JSON').option('--home <dir>', HOME_HELP)
    .action(async (options: { json?: boolean; home?: string }) => {
      const servers = await withStore(context, options.home, async (store) => store.snapshot().mcp_servers ?? []);
      const rows = servers.map((server) => ({
        name: server.name, transport: server.transport, target: server.url !== undefined ? maskUrlCredentials(server.url) : maskSecretWords(server.command ?? []).join(' '),
        headers: Object.fromEntries(Object.entries(server.headers ?? {}).map(([key, value]) => [key, shown(value)])),
        env: Object.fromEntries(Object.entries(server.env ?? {}).map(([key, value]) => [key, shown(value)])),
      }));
      if (options.json) return context.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      if (rows.length === 0) return context.stdout.write('no MCP servers (gw mcp add NAME --url URL | --command "…")\n');
      context.stdout.write(formatTable([['NAME', 'TRANSPORT', 'URL OR COMMAND', 'HEADERS / ENV'], ...rows.map((row) => [
        row.name, row.transport, row.target, Object.entries({ ...row.headers, ...row.env }).map(([key, value]) => `${key}=${value}`).join(' '),
      ])]));
    });
  mcp.command('remove').description('Remove an MCP server').argument('<name>').option('--home <dir>', HOME_HELP)
    .action(async (name: string, options: { home?: string }) => {
      const removed = await withStore(context, options.home, (store) => store.update((draft) => {
        const before = (draft.mcp_servers ?? []).length;
        draft.mcp_servers = (draft.mcp_servers ?? []).filter((server) => server.name !== name);
        return before !== draft.mcp_servers.length;
      }));
      if (!removed) throw new CliExit(1, `no MCP server ${name} (see gw mcp list)`);
      context.stdout.write(`removed MCP server ${name}\n`);
    });
  registerMcpTest(mcp, context);
}
