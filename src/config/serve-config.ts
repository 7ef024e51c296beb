// `gw serve` settings from flags and the environment (flags win). The only place
// besides home.ts that reads environment variables for the server.
import { resolveHome } from './home.js';

export interface ServeFlags {
  host?: string;
  port?: string;
  home?: string;
  tlsCert?: string;
  tlsKey?: string;
  logLevel?: string;
}

export interface ServeConfig {
  host: string;
  port: number;
  home: string;
  tls?: { certFile: string; keyFile: string };
  logLevel: string;
}

export function resolveServeConfig(flags: ServeFlags, env: NodeJS.ProcessEnv): ServeConfig {
  const portText = flags.port ?? env.GW_PORT ?? '8080';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new Error(`invalid port "${portText}": use a number from 0 to 65535`);
  if (Boolean(flags.tlsCert) !== Boolean(flags.tlsKey)) throw new Error('--tls-cert and --tls-key go together: give both or neither');
  return {
    host: flags.host ?? env.GW_HOST ?? '127.0.0.1',
    port,
    home: resolveHome(flags.home, env),
    tls: flags.tlsCert && flags.tlsKey ? { certFile: flags.tlsCert, keyFile: flags.tlsKey } : undefined,
    logLevel: flags.logLevel ?? env.GW_LOG_LEVEL ?? 'info',
  };
}
