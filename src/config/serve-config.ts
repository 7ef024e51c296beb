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

export interface UpstreamTimeoutConfig {
  connectMs: number;
  headersMs: number;
  bodyIdleMs: number;
}

export interface ServeConfig {
  upstreamTimeouts: UpstreamTimeoutConfig;
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
    upstreamTimeouts: {
      connectMs: readMilliseconds(env, 'GW_UPSTREAM_CONNECT_TIMEOUT_MS', 10_000),
      // Reasoning models can think for minutes before their first byte.
      headersMs: readMilliseconds(env, 'GW_UPSTREAM_HEADERS_TIMEOUT_MS', 600_000),
      bodyIdleMs: readMilliseconds(env, 'GW_UPSTREAM_IDLE_TIMEOUT_MS', 120_000),
    },
  };
}

function readMilliseconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name}="${text}" is not a positive number of milliseconds`);
  return value;
}
