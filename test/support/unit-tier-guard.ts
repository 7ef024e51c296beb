// The unit tier's rule (docs/testing.md): a unit test starts no process and no server, so the
// tier stays fast and runs anywhere without installing anything. Once installed (by the unit
// project's setup file, unit-tier-setup.ts), starting a child process or listening on a port
// throws an error that names the rule and where such a test belongs.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

export const UNIT_TIER_RULE = 'the unit tier starts no process and no server: a test that spawns a child process or listens on a port belongs in test/e2e/ (docs/testing.md)';

/** Every child_process function that starts a process. */
export const PROCESS_STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

export class UnitTierError extends Error {
  constructor(what: string) {
    super(`${what} called in a unit test: ${UNIT_TIER_RULE}`);
    this.name = 'UnitTierError';
  }
}

function refuse(what: string): () => never {
  return () => { throw new UnitTierError(what); };
}

export function installUnitTierGuard(): void {
  for (const name of PROCESS_STARTERS) {
    Object.defineProperty(childProcess, name, { value: refuse(`child_process.${name}()`), writable: true, configurable: true, enumerable: true });
  }
  // http, https and every server library listen through net.Server.
  Object.defineProperty(net.Server.prototype, 'listen', { value: refuse('net.Server.listen()'), writable: true, configurable: true });
  // ESM named imports of node:child_process (import { spawn } …) read the synced copies.
  syncBuiltinESMExports();
}
