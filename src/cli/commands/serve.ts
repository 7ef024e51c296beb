// `gw serve`: runs the gateway in the foreground until SIGINT/SIGTERM.
import path from 'node:path';
import type { Command } from 'commander';
import { resolveServeConfig, type ServeFlags } from '../../config/serve-config.js';
import type { RunningGateway } from '../../gateway/start-gateway.js';
import { isLoopbackAddress } from '../../sidecar/loopback-guard.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { checkLogFormat, checkLogLevel } from '../log-level.js';
import { findSidecarLogin } from '../sidecar-login.js';
import type { SidecarLogin } from '../../sidecar/hub-session.js';
import { suggestModel, toolLines } from '../tool-lines.js';
import { providersAt } from '../local-gateway.js';

export function registerServeCommand(program: Command, context: CliContext): void {
  program.command('serve')
    .description('Run the gateway (default http://127.0.0.1:8080)')
    .option('--host <host>', 'address to listen on (GW_HOST; default 127.0.0.1)')
    .option('--port <port>', 'port to listen on (GW_PORT; default 8080)')
    .option('--home <dir>', 'state folder (GW_HOME; default the platform config folder)')
    .option('--tls-cert <file>', 'PEM certificate, to terminate TLS in gw itself')
    .option('--tls-key <file>', 'PEM private key for --tls-cert')
    .option('--log-level <level>', 'pino log level (GW_LOG_LEVEL; default info)')
    .option('--log-format <format>', 'pretty (one readable line per request) or json (GW_LOG_FORMAT; default pretty on a terminal, else json)')
    .option('--standalone', 'ignore a stored login (gw login) or GW_TOKEN: serve as a standalone gateway or hub')
    .option('--allow-remote-sidecar', 'let a sidecar bind an address other machines can reach (its Host/Origin guard stays on)')
    .option('--store <url>', 'PostgreSQL holding state, resource ids and the audit trail, shared by several instances (GW_DATABASE_URL)')
    .option('--redis <url>', 'Redis or Valkey holding rate-limit counters shared by several instances (GW_REDIS_URL)')
    .option('--accept-audit-gap', 'start although the audit log does not reach its checkpoint (records removed while stopped), recording an audit.gap')
    .action(async (flags: RunFlags) => runServe(flags, context));
}

type RunFlags = ServeFlags & { logFormat?: string; standalone?: boolean; allowRemoteSidecar?: boolean; acceptAuditGap?: boolean };

async function runServe(flags: RunFlags, context: CliContext): Promise<void> {
  let config;
  let gateway: RunningGateway;
  let sidecar: SidecarLogin | null = null;
  try {
    config = resolveServeConfig(flags, context.env);
    const logLevel = checkLogLevel(config.logLevel, flags.logLevel !== undefined);
    const logFormat = checkLogFormat(flags.logFormat ?? context.env.GW_LOG_FORMAT, flags.logFormat !== undefined);
    sidecar = flags.standalone ? null : await findSidecarLogin(config.home, context.env);
    if (sidecar && !flags.allowRemoteSidecar && !isLoopbackAddress(config.host)) throw refuseRemoteSidecar(config.host, sidecar);
    // Loaded here, not at the top, so `gw keys list` and friends never pay for fastify and pino.
    const [{ startGateway }, { createLogger }] = await Promise.all([import('../../gateway/start-gateway.js'), import('../../logger.js')]);
    gateway = await startGateway({ ...config, env: context.env, logger: createLogger({ level: logLevel, format: logFormat }), acceptAuditGap: flags.acceptAuditGap === true, ...(sidecar ? { sidecar } : {}) });
  } catch (error) {
    if (error instanceof CliExit) throw error;
    throw new CliExit(1, error instanceof Error ? error.message : String(error));
  }
  context.stdout.write(sidecar
    ? describeSidecarStart(gateway, config.home, sidecar, await providersAt(sidecar.hub), context)
    : describeStart(gateway, config.home, context));
  await new Promise<void>((resolve) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1;
      if (signals > 1) process.exit(130);
      context.stderr.write(`gw: ${signal}: finishing in-flight requests, then stopping (again to force)\n`);
      void gateway.stop().then(resolve);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  context.stderr.write('gw: stopped; audit trail flushed\n');
}

/**
 * A sidecar serves every call without a key as its logged-in person; bound off loopback,
 * anyone on the network could be served as them. Exit 2, as for other bad usage.
 */
function refuseRemoteSidecar(host: string, login: SidecarLogin): CliExit {
  const who = login.person ?? 'the person whose token is in GW_TOKEN';
  return new CliExit(2, [
    `refusing to start a sidecar on ${host}: a sidecar serves calls without a key as the logged-in person (${who}),`,
    'so anyone who can reach that address would be served as them.',
    'Bind 127.0.0.1 (the default), start with --standalone to serve as a gateway with its own keys,',
    'or pass --allow-remote-sidecar if this is meant (e.g. in a container whose port is published on the host\'s loopback; the Host/Origin guard stays on).',
  ].join('\n'));
}

/** Sidecar mode (DESIGN.md, "Modes"): says so, names the hub and person, and how tools connect with no key. */
function describeSidecarStart(gateway: RunningGateway, home: string, login: SidecarLogin, hubProviders: string[] | null, context: CliContext): string {
  const local = gateway.providerNames.filter((name) => name !== 'hub' && name !== 'mock');
  const base = gateway.url;
  return `${[
    `gw serve: sidecar mode, listening on ${base}`,
    `  hub ${login.hub} · ${login.person ? `logged in as ${login.person}${login.team ? ` (team ${login.team})` : ''}` : 'token from GW_TOKEN'} · token from ${login.source}`,
    `  every model goes through the hub${local.length > 0 ? `, except local providers added with gw providers add: ${local.join(', ')}` : ''}; audit ${path.join(home, 'audit', 'audit.jsonl')}`,
    ...gateway.providerWarnings.map((warning) => `  notice: ${warning}`),
    // Tools still want some key (Claude Code stops at "Not logged in" without one): any value does, calls are served as you.
    `Point your tools at it; any key works (requests are served as you)${describeModel(hubProviders, 'the hub')}:`,
    ...toolLines({ url: localUrl(base), credential: 'gw-sidecar', model: hubProviders ? suggestModel(hubProviders) : null, gwRun: gwCommand('run', base, home, context) }),
  ].join('\n')}\n`;
}

/** Why the lines name the model they name. */
function describeModel(providers: string[] | null, where: string): string {
  const model = providers ? suggestModel(providers) : null;
  if (model === null) return `; ${where} did not say which providers it serves, so put one of its models for <model>`;
  if (model === 'mock/echo') return `, with mock/echo: ${where} has no provider keys, so only mock/<anything> models answer`;
  return `, with ${model} (any model ${where} routes works)`;
}

/** A wildcard listener is reached on loopback from this machine. */
function localUrl(url: string): string {
  return url.replace(/^(https?:\/\/)(0\.0\.0\.0|\[::\])([:/]|$)/, '$1127.0.0.1$3');
}

/** `gw run` / `gw token` as typed in another shell of this machine: GW_URL and --home only when they are not what gw finds by itself. */
function gwCommand(command: 'run' | 'token', url: string, home: string, context: CliContext): string {
  const target = localUrl(url);
  const urlPart = target === 'http://127.0.0.1:8080' ? '' : `GW_URL=${target} `;
  const homePart = home === context.home() ? '' : ` --home ${/^[\w@%+=:,./-]+$/.test(home) ? home : `'${home.replaceAll("'", `'\\''`)}'`}`;
  return `${urlPart}gw ${command}${homePart}`;
}

/** The `gw login --hub` line; a wildcard address (0.0.0.0, ::) is no URL a laptop can use, so that case asks for public_url. */
function describeHubLogin(url: string, publicUrl: string | null): string[] {
  const lines = [`  people log in from their laptops with:  gw login --hub ${publicUrl ?? url}`];
  if (publicUrl === null && /^https?:\/\/(0\.0\.0\.0|\[::\])[:/]/.test(url)) {
    lines.push('  (that is every address of this machine: set the one laptops reach with gw settings set public_url https://…)');
  }
  return lines;
}

function describeStart(gateway: RunningGateway, home: string, context: CliContext): string {
  const settings = gateway.services.state.snapshot().settings;
  // A standalone gateway with device login on is a hub: say so, and give the exact line for laptops.
  const hub = settings.device_login;
  const lines = [
    `gw serve: ${hub ? 'hub, ' : ''}standalone mode, listening on ${gateway.url}`,
    ...(hub ? describeHubLogin(gateway.url, settings.public_url) : []),
    `  ${gateway.storage}`,
    `  providers: ${gateway.providerNames.join(', ')}${gateway.providerNames.length === 1 ? ' (no provider keys in the environment: only mock/<anything> models answer)' : ''}`,
    ...gateway.providerWarnings.map((warning) => `  warning: ${warning}`),
  ];
  const key = gateway.bootstrapKey;
  const base = localUrl(gateway.url);
  if (key) {
    lines.push(
      '',
      'First start: created team "local" and its virtual key. It is shown only this once; store it now:',
      '',
      `  ${key}`,
      '',
      'Try it:',
      `  curl ${base}/v1/chat/completions -H "Authorization: Bearer ${key}" -H "content-type: application/json" \\`,
      `    -d '{"model":"mock/echo","messages":[{"role":"user","content":"hello"}]}'`,
    );
  }
  // After the first start the key is not known any more: gw token makes an hour-long one in the same home.
  const credential = key ?? `$(${gwCommand('token', gateway.url, home, context)})`;
  lines.push(
    `Point your tools at it${describeModel(gateway.providerNames, 'this gateway')}:`,
    ...toolLines({ url: base, credential, model: suggestModel(gateway.providerNames), gwRun: gwCommand('run', gateway.url, home, context) }),
  );
  return `${lines.join('\n')}\n`;
}
