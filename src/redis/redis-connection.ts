// The one Redis/Valkey connection an instance holds (gw serve --redis), shared by the
// rate limiter and the hub's login limits. While Redis is away every command fails at
// once (no offline queue, no retries per command): the callers decide what that means
// (limits_when_redis_down for rate limits; per-instance counting for login limits).
import { Redis } from 'ioredis';

export interface RedisConnection {
  client: Redis;
  /** Whether the last command (or the connection) worked; for /health. */
  health(): { reachable: boolean; problem?: string };
  /** Callers note each command's outcome so /health follows what requests see. */
  noteSuccess(): void;
  noteFailure(error: unknown): void;
  close(): Promise<void>;
}

export function connectRedis(url: string, onError: (error: Error) => void): RedisConnection {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    // Commands issued in the same tick go out in one write: fewer syscalls per call under load.
    enableAutoPipelining: true,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(100 * attempt, 2_000),
  });
  let problem: string | null = null;
  client.on('error', (error: Error) => { problem = error.message; onError(error); });
  client.on('ready', () => { problem = null; });
  return {
    client,
    health: () => (problem === null ? { reachable: true } : { reachable: false, problem }),
    noteSuccess: () => { problem = null; },
    noteFailure: (error) => { problem = error instanceof Error ? error.message : String(error); },
    close: async () => { client.disconnect(); },
  };
}
