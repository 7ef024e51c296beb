// The gateway `gw run` and `gw token` talk to: the one at GW_URL, else the gw serve that holds
// this home (its address recorded in the home, serve-address.ts), else the one answering at
// http://127.0.0.1:8080 (gw serve's default), else one started in the background from this
// home. Whether it is a sidecar decides the credential.
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliExit, type CliContext } from './cli-context.js';
import { getLocal } from './local-get.js';
import { findAuditLockHolder, findServeAddress } from './serve-address.js';

export interface LocalGateway {
  url: string;
  sidecar: boolean;
  /** Providers it serves (from /health), to tell a mock-only gateway. */
  providers: string[];
  /** A sidecar's models, as its hub told it at token exchange (from /health); [] otherwise. */
  hubModels: string[];
  /** It fronts MCP servers at /mcp (from /health). */
  mcp: boolean;
  /** Set when gw run started it: where its output goes. */
  startedLog: string | null;
}

interface Health { components?: { hub?: { models?: unknown }; mcp?: unknown; providers?: { configured?: string[] } } }

async function probe(url: string): Promise<Health | null> {
  try {
    const answer = await getLocal(`${url}/health`, { timeoutMs: 1_500 });
    return JSON.parse(answer.body) as Health;
  } catch {
    return null;
  }
}

function describe(url: string, health: Health, startedLog: string | null): LocalGateway {
  const hubModels = health.components?.hub?.models;
  return {
    url, sidecar: health.components?.hub !== undefined, providers: health.components?.providers?.configured ?? [],
    hubModels: Array.isArray(hubModels) ? hubModels.filter((model): model is string => typeof model === 'string') : [],
    mcp: health.components?.mcp !== undefined, startedLog,
  };
}

/** The gw serve that recorded its address in this home, if it is alive and answers. */
async function findHomeGateway(home: string): Promise<LocalGateway | null> {
  const url = await findServeAddress(home);
  const health = url === null ? null : await probe(url);
  return url !== null && health !== null ? describe(url, health, null) : null;
}

const BIN = fileURLToPath(new URL('../../bin/gw.js', import.meta.url));

/** The running gateway, or one started now with `gw serve` in the background (its output in <home>/serve.log). */
export async function findOrStartGateway(context: CliContext, home: string): Promise<LocalGateway> {
  const holding = context.env.GW_URL === undefined ? await findHomeGateway(home) : null;
  if (holding) return holding;
  const url = (context.env.GW_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const running = await probe(url);
  if (running) return describe(url, running, null);
  // A second gw serve on a home one already holds would die on its audit lock.
  const holder = await findAuditLockHolder(home);
  if (holder !== null) throw new CliExit(1, `gw serve (pid ${holder}) holds ${home} but does not answer at ${url}: set GW_URL to where it listens, or stop it (kill ${holder})`);
  const port = new URL(url).port || '80';
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname)) throw new CliExit(1, `no gateway answers at ${url} (GW_URL), and gw starts one only on this machine`);
  await mkdir(home, { recursive: true, mode: 0o700 });
  const log = path.join(home, 'serve.log');
  const output = await open(log, 'a', 0o600);
  // Loaded only to start one: `gw token` with a gateway running starts no process.
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [BIN, 'serve', '--port', port, '--home', home], {
    detached: true, stdio: ['ignore', output.fd, output.fd], env: context.env,
  });
  child.unref();
  await output.close();
  context.stderr.write(`gw: no gateway answered at ${url}; started gw serve in the background (pid ${child.pid}, output in ${log}; stop it with kill ${child.pid})\n`);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const health = await probe(url);
    if (health) return describe(url, health, log);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new CliExit(1, `gw serve did not start at ${url}: see ${log}`);
}
