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
  store?: string;
  redis?: string;
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
  /** PostgreSQL holding state, resource ids and the audit trail (--store, GW_DATABASE_URL); else the home's files. */
  storeUrl?: string;
  /** Redis/Valkey holding the rate-limit counters shared by every instance (--redis, GW_REDIS_URL); else in process. */
  redisUrl?: string;
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
    ...optional('storeUrl', flags.store ?? env.GW_DATABASE_URL),
    ...optional('redisUrl', checkRedisUrl(flags.redis ?? env.GW_REDIS_URL)),
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

function optional<K extends string>(name: K, value: string | undefined): { [P in K]?: string } {
  const trimmed = value?.trim();
  return (trimmed ? { [name]: trimmed } : {}) as { [P in K]?: string };
}

function checkRedisUrl(value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() !== '' && !/^(?:redis|rediss|valkey|valkeys):\/\//i.test(value.trim())) {
    throw new Error('--redis takes a redis:// or rediss:// URL (Valkey speaks the same protocol)');
  }
  return value;
}
