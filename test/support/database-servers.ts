// Real PostgreSQL and Redis servers for the scale-out tests: scripts/database-servers.mjs
// (shared with bench/stores.mjs), with its types.
import * as servers from '../../scripts/database-servers.mjs';

export interface PostgresServer {
  /** A superuser URL for the server's `postgres` database. */
  url: string;
  port: number;
  /** A fresh database on this server, and its URL. */
  createDatabase(name?: string): Promise<string>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

export interface RedisServer {
  url: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export const freePort: () => Promise<number> = servers.freePort;
export const startPostgres: () => Promise<PostgresServer> = servers.startPostgres;
export const startRedis: () => Promise<RedisServer> = servers.startRedis;
