// `gw mcp test NAME [--json]`: connect to a server as gw's /mcp would and say what it offers.
// The line names its tools (as agents call them at /mcp) and counts its resources and prompts;
// --json gives the whole catalog (tools, resources, templates, prompts), which the console's MCP
// page reads through the remote CLI, so the page shows what the gateway itself discovers.
import type { Command } from 'commander';
import { CliExit, type CliContext } from '../cli-context.js';
import { withStore } from '../state-command.js';

const HOME_HELP = 'gw home folder (default: $GW_HOME or the platform config folder)';

export function registerMcpTest(mcp: Command, context: CliContext): void {
  mcp.command('test').description('Connect to a server as gw would, list its tools, resources and prompts, and say how long each step took')
    .argument('<name>').option('--json', 'print the whole catalog as JSON').option('--home <dir>', HOME_HELP)
    .action(async (name: string, options: { json?: boolean; home?: string }) => {
      const servers = await withStore(context, options.home, async (store) => store.snapshot().mcp_servers ?? []);
      if (!servers.some((server) => server.name === name)) throw new CliExit(1, `no MCP server ${name} (see gw mcp list)`);
      const [{ UpstreamServers }, { readMcpCatalog }] = await Promise.all([import('../../mcp/upstream-servers.js'), import('../../mcp/mcp-catalog.js')]);
      const upstream = new UpstreamServers(() => servers, context.env);
      try {
        const catalog = await readMcpCatalog(upstream, name).catch((error: Error) => { throw new CliExit(1, `cannot connect to ${name}: ${error.message}`); });
        if (options.json) return void context.stdout.write(`${JSON.stringify(catalog, null, 2)}\n`);
        context.stdout.write(`${name}: connected in ${catalog.connect_ms} ms; ${catalog.tools.length} tools listed in ${catalog.list_ms} ms: ${catalog.tools.map((tool) => tool.gateway_name).join(', ')}\n`);
        context.stdout.write(`${name}: ${catalog.resources.length} resources, ${catalog.resource_templates.length} resource templates, ${catalog.prompts.length} prompts${catalog.prompts.length > 0 ? `: ${catalog.prompts.map((prompt) => prompt.gateway_name).join(', ')}` : ''}\n`);
      } finally {
        await upstream.close();
      }
    });
}
