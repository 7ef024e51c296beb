// `gw serve`: runs the gateway in the foreground until SIGINT/SIGTERM.
import { mkdir } from 'node:fs/promises';
import type { Command } from 'commander';
import { resolveServeConfig, type ServeFlags } from '../../config/serve-config.js';
import type { RunningGateway } from '../../gateway/start-gateway.js';
import { isLoopbackAddress } from '../../sidecar/loopback-guard.js';
import type { AdminCommands } from '../../admin/admin-api.js';
import type { StateStore } from '../../state/state-store.js';
import { CliExit, type CliContext } from '../cli-context.js';
import { checkLogLevel } from '../log-level.js';
import { listenProblem, nextFreePort } from '../free-port.js';
import { describeListenError } from '../../gateway/listen-errors.js';
import { resolveLogFormat, type LogFormat } from '../../pretty-log.js';
import { findSidecarLogin } from '../sidecar-login.js';
import type { SidecarLogin } from '../../sidecar/hub-session.js';
import { describeSidecarStart, describeStart, localUrl } from '../serve-banner.js';
import { recordServeAddress } from '../serve-address.js';
import { shellCommand } from '../../shell-quote.js';
import { parsePeerCidrs, type PeerAllowList } from '../../sidecar/peer-allow-list.js';
import { errorMessage } from '../../error-message.js';

/** How a hub runs admins' remote governance commands (whole-program.ts hands in the CLI's own, src/cli/remote-commands.ts). */
export type AdminCommandsFor = (input: { home: string; env: NodeJS.ProcessEnv }) => (store: StateStore) => AdminCommands;

export function registerServeCommand(program: Command, context: CliContext, adminCommandsFor?: AdminCommandsFor): void {
  program.command('serve')
    .description('Run the gateway (default http://127.0.0.1:8080)')
    .option('--host <host>', 'address to listen on (GW_HOST; default 127.0.0.1)')
    .option('--port <port>', 'port to listen on (GW_PORT; default 8080)')
    .option('--home <dir>', 'state folder (GW_HOME; default the platform config folder)')
    .option('--tls-cert <file>', 'PEM certificate, to terminate TLS in gw itself')
    .option('--tls-key <file>', 'PEM private key for --tls-cert')
    .option('--log-level <level>', 'pino log level (GW_LOG_LEVEL; default info)')
    .option('--log-format <format>', 'pretty (one readable line per request) or json (GW_LOG_FORMAT; default pretty on a terminal, json otherwise)')
    .option('--standalone', 'ignore a stored login (gw login) or GW_TOKEN: serve as a standalone gateway or hub')
    .option('--allow-remote-sidecar', 'let a sidecar bind an address other machines can reach; it still serves only loopback peers and those --allow-remote-peer names')
    .option('--allow-remote-peer <cidr>', 'with --allow-remote-sidecar: also serve connections from this IPv4/IPv6 address or CIDR (repeatable)', (value: string, list: string[]) => [...list, value], [] as string[])
    .option('--store <url>', 'PostgreSQL holding state, resource ids and the audit trail, shared by several instances (GW_DATABASE_URL)')
    .option('--redis <url>', 'Redis or Valkey holding rate-limit counters shared by several instances (GW_REDIS_URL)')
    .option('--accept-audit-gap', 'start although the audit log does not reach its checkpoint (records removed while stopped), recording an audit.gap')
    .action(async (flags: RunFlags) => runServe(flags, context, adminCommandsFor));
}

type RunFlags = ServeFlags & { logFormat?: string; standalone?: boolean; allowRemoteSidecar?: boolean; allowRemotePeer?: string[]; acceptAuditGap?: boolean };

async function runServe(flags: RunFlags, context: CliContext, adminCommandsFor?: AdminCommandsFor): Promise<void> {
  let config;
  let gateway: RunningGateway;
  let sidecar: SidecarLogin | null;
  try {
    config = resolveServeConfig(flags, context.env);
    // With a store the state lives in PostgreSQL, but the home still holds the signing key and
    // the journal: make it as the state file does without a store (owner-only).
    if (config.storeUrl) await mkdir(config.home, { recursive: true, mode: 0o700 });
    const logLevel = checkLogLevel(config.logLevel, flags.logLevel !== undefined);
    let logFormat: LogFormat;
    try {
      logFormat = resolveLogFormat(flags.logFormat, context.env, process.stderr.isTTY === true);
    } catch (error) {
      throw new CliExit(2, errorMessage(error));
    }
    // A taken port is said before anything starts: no hub exchange or witness read logs a line after the error.
    if (config.port !== 0 && await listenProblem(config.port, config.host) === 'EADDRINUSE') {
      throw new CliExit(1, await withFreePort(new Error(describeListenError({ code: 'EADDRINUSE' }, config.host, config.port), { cause: { code: 'EADDRINUSE' } }), config.host, homeArgsFor(config.home, context)));
    }
    sidecar = flags.standalone ? null : await findSidecarLogin(config.home, context.env);
    if (sidecar && !flags.allowRemoteSidecar && !isLoopbackAddress(config.host)) throw refuseRemoteSidecar(config.host, sidecar);
    const peers = remotePeers(flags, sidecar);
    if (sidecar && flags.allowRemoteSidecar) context.stderr.write(remoteSidecarWarning(config.host, sidecar, peers));
    // Loaded here, not at the top, so `gw keys list` and friends never pay for fastify and pino.
    const [{ startGateway }, { createLogger }] = await Promise.all([import('../../gateway/start-gateway.js'), import('../../logger.js')]);
    // A hub runs admins' remote governance commands (gw policy set … --hub) with the CLI's own code.
      const adminCommands = adminCommandsFor?.({ home: config.home, env: { ...context.env, ...(config.storeUrl ? { GW_DATABASE_URL: config.storeUrl } : {}) } });
      gateway = await startGateway({
        ...config, env: context.env, logger: createLogger({ level: logLevel, format: logFormat }), acceptAuditGap: flags.acceptAuditGap === true,
        ...(sidecar ? { sidecar } : adminCommands ? { adminCommands } : {}),
        ...(peers ? { remotePeer: (address: string) => peers.allows(address) } : {}),
      });
  } catch (error) {
    if (error instanceof CliExit) throw error;
    throw new CliExit(1, error instanceof Error ? await withFreePort(error, config?.host, config ? homeArgsFor(config.home, context) : []) : String(error));
  }
  // Before the banner: whoever reads it may run gw token at once, which looks here for this gateway.
  const forgetAddress = await recordServeAddress(config.home, localUrl(gateway.url));
  // A model per tool the banner can suggest: what the hub said it serves (a sidecar), or one of each provider's.
  const models = await gateway.suggestedModels();
  context.stdout.write(sidecar ? describeSidecarStart(gateway, config.home, sidecar, models, context.env) : describeStart(gateway, config.home, models, context.env));
  await new Promise<void>((resolve) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1;
      if (signals > 1) process.exit(130);
      context.stderr.write(`gw: ${signal}: finishing in-flight requests, then stopping (again to force)\n`);
      void gateway.stop().then(forgetAddress).then(resolve);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  context.stderr.write('gw: stopped; audit trail flushed\n');
}

/** `--home DIR` when the home is not the one gw finds by itself: the commands gw prints must run as typed. */
function homeArgsFor(home: string, context: CliContext): string[] {
  return home === context.home(undefined) ? [] : ['--home', home];
}

/** A port in use (the hub's, on one machine): the message ends with the exact command for a free one. */
async function withFreePort(error: Error, host: string | undefined, homeArgs: readonly string[]): Promise<string> {
  if ((error.cause as { code?: string } | undefined)?.code !== 'EADDRINUSE' || host === undefined) return error.message;
  const match = /^port (\d+) /.exec(error.message);
  if (!match) return error.message;
  const free = await nextFreePort(Number(match[1]), host).catch(() => null);
  return free === null ? error.message : `${error.message} (${free} is free now: ${shellCommand(['gw', 'serve', '--port', String(free), ...homeArgs])}; gw run and gw token find it through its home)`;
}

/** The --allow-remote-peer CIDRs; they mean something only to a sidecar started with --allow-remote-sidecar. */
function remotePeers(flags: RunFlags, sidecar: SidecarLogin | null): PeerAllowList | null {
  const given = flags.allowRemotePeer ?? [];
  if (given.length === 0) return null;
  if (!sidecar || !flags.allowRemoteSidecar) throw new CliExit(2, '--allow-remote-peer goes with --allow-remote-sidecar: it names the other machines a sidecar serves');
  try {
    return parsePeerCidrs(given);
  } catch (error) {
    throw new CliExit(2, errorMessage(error));
  }
}

/** Said at every start: who can be served as the person, and that everyone else is refused by address. */
function remoteSidecarWarning(host: string, login: SidecarLogin, peers: PeerAllowList | null): string {
  const who = login.person ?? 'the person whose token is in GW_TOKEN';
  return [
    `gw serve: warning: --allow-remote-sidecar: this sidecar listens on ${host} and serves calls without a key as ${who}.`,
    peers
      ? `  It serves this machine (loopback) and connections from ${peers.cidrs.join(', ')} (--allow-remote-peer); anyone else is refused by address.`
      : '  It serves only connections from this machine (loopback); others are refused by address. Name other machines with --allow-remote-peer CIDR.',
    '',
  ].join('\n');
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
    'or pass --allow-remote-sidecar if this is meant (e.g. in a container whose port is published on the host\'s loopback),',
    'with --allow-remote-peer CIDR for each network it may serve (only loopback peers otherwise).',
  ].join('\n'));
}

