// The MCP servers gw fronts (state `mcp_servers`, `gw mcp add`), each behind one SDK (2.x) client:
// remote servers over streamable HTTP (or the older SSE transport), local ones as child
// processes over stdio. A client connects on first use. A stdio child that exits is started
// again by gw after a backoff (0.5 s, doubling to 30 s while it keeps dying within a minute of
// its start); a remote server whose connection broke is reconnected on next use, after the
// same backoff. /health says which servers are up, down, and how often they restarted. A
// server removed with gw mcp remove has its client closed (and its child ended).
// Header and variable values may be `env:NAME`, read from gw's environment when connecting.
import type { Client, Resource, Tool, Transport } from '@modelcontextprotocol/client';
import type { StoredMcpServer } from '../state/mcp-servers.js';
import { boundHostAllows } from '../state/bound-host.js';
import { loadClientSdk, type ClientSdk } from './load-sdk.js';
import { GW_VERSION } from './version.js';

const MAX_BACKOFF_MS = 30_000;
/** A server that stayed up this long before it died starts its backoff over. */
const STABLE_MS = 60_000;
/** A server that pages its tools past this many pages is read no further (a loop guard). */
const MAX_PAGES = 50;
/** A stdio server silent on the revision probe is an older one (some never answer before initialize): this long, not the minute a call may take. */
const PROBE_TIMEOUT_MS = 5_000;

export interface UpstreamHealth {
  status: 'up' | 'down' | 'idle';
  restarts: number;
  last_error?: string;
}

interface Slot {
  signature: string;
  /** The server answered the revision probe as an older one: its restarts skip the probe. */
  legacy?: boolean;
  client: Client | null;
  connecting: Promise<Client> | null;
  restarts: number;
  failures: number;
  retryAt: number;
  lastError?: string;
  everConnected: boolean;
  connectedAt: number;
  /** A stdio child's scheduled start after it died. */
  restartTimer: NodeJS.Timeout | null;
  /** The tool names the current connection listed last; null until listed, or after tools/list_changed. */
  toolNames: Set<string> | null;
  /** The resource URIs the current connection listed last; null until listed, or after resources/list_changed. */
  resourceUris: Set<string> | null;
}

/** Every page of a listing: servers may page with nextCursor. */
export async function everyPage<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let count = 0; count < MAX_PAGES; count += 1) {
    const result = await page(cursor);
    items.push(...result.items);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return items;
}

function resolve(value: string, env: NodeJS.ProcessEnv): string {
  if (!value.startsWith('env:')) return value;
  const name = value.slice(4);
  const found = env[name];
  if (found === undefined) throw new Error(`the environment variable ${name} is not set`);
  return found;
}

function resolveMap(map: Record<string, string> | undefined, env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(map ?? {}).map(([name, value]) => [name, resolve(value, env)]));
}

/** A server's headers go only to the host they were set for (src/state/bound-host.ts): moved elsewhere, it is not connected. */
function boundHeaders(server: StoredMcpServer): Record<string, string> | undefined {
  if (Object.keys(server.headers ?? {}).length === 0 || boundHostAllows(server.credential_host, server.url ?? '')) return server.headers;
  throw new Error(`its headers were set for ${server.credential_host}, and its URL now names another host: give them again with gw mcp add`);
}

function transportFor(sdk: ClientSdk, server: StoredMcpServer, env: NodeJS.ProcessEnv): Transport {
  if (server.transport === 'stdio') {
    const [command, ...args] = server.command!;
    // The child gets a minimal environment plus its own variables: never gw's provider keys.
    return new sdk.StdioClientTransport({ command: command!, args, env: { ...sdk.getDefaultEnvironment(), ...resolveMap(server.env, env) }, stderr: 'ignore' });
  }
  const headers = resolveMap(boundHeaders(server), env);
  if (server.transport === 'sse') return new sdk.SSEClientTransport(new URL(server.url!), { requestInit: { headers } });
  return new sdk.StreamableHTTPClientTransport(new URL(server.url!), { requestInit: { headers } });
}

/**
 * 'auto': a server/discover probe first (on the connection itself, load-sdk.ts), so a 2026-07-28
 * server is spoken to in its revision and an older one through the initialize handshake it knows
 * (each server on its own). The legacy SSE transport predates the new revision: no probe there.
 */
function negotiationFor(server: StoredMcpServer): { mode: 'auto' | 'legacy'; probe?: { timeoutMs: number } } {
  if (server.transport === 'sse') return { mode: 'legacy' };
  return server.transport === 'stdio' ? { mode: 'auto', probe: { timeoutMs: PROBE_TIMEOUT_MS } } : { mode: 'auto' };
}

function backoffMs(failures: number): number {
  return Math.min(MAX_BACKOFF_MS, 500 * 2 ** (failures - 1));
}

export class UpstreamServers {
  readonly #slots = new Map<string, Slot>();
  #closed = false;

  constructor(private readonly servers: () => readonly StoredMcpServer[], private readonly env: NodeJS.ProcessEnv, private readonly now: () => number = Date.now) {}

  list(): readonly StoredMcpServer[] {
    return this.servers();
  }

  /** A connected client for `name`, connecting (or reconnecting after its backoff) when needed. */
  async client(name: string): Promise<Client> {
    this.#sweep();
    const server = this.servers().find((candidate) => candidate.name === name);
    if (!server) throw new Error(`no MCP server ${name}`);
    const signature = JSON.stringify(server);
    let slot = this.#slots.get(name);
    if (slot && slot.signature !== signature) {
      // Changed with gw mcp add: the old client goes.
      this.#retire(slot);
      slot = undefined;
    }
    if (!slot) {
      slot = { signature, client: null, connecting: null, restarts: 0, failures: 0, retryAt: 0, everConnected: false, connectedAt: 0, restartTimer: null, toolNames: null, resourceUris: null };
      this.#slots.set(name, slot);
    }
    if (slot.client) return slot.client;
    if (slot.connecting) return slot.connecting;
    if (this.now() < slot.retryAt) throw new Error(`${slot.lastError ?? 'not reachable'} (retrying in ${Math.ceil((slot.retryAt - this.now()) / 1000)} s)`);
    const current = slot;
    current.connecting = this.#connect(server, current).finally(() => { current.connecting = null; });
    return current.connecting;
  }

  async #connect(server: StoredMcpServer, slot: Slot): Promise<Client> {
    const sdk = await loadClientSdk();
    const client = new sdk.Client({ name: 'gw', version: GW_VERSION }, { versionNegotiation: negotiationFor(server) });
    try {
      const transport = transportFor(sdk, server, this.env);
      // A server found older on its last start is not probed again (a restart costs one handshake).
      await client.connect(transport, { timeout: 15_000, ...(slot.legacy ? { prior: { kind: 'legacy' as const } } : {}) });
    } catch (error) {
      slot.failures += 1;
      slot.lastError = error instanceof Error ? error.message : String(error);
      slot.retryAt = this.now() + backoffMs(slot.failures);
      await client.close().catch(() => undefined);
      if (server.transport === 'stdio') this.#scheduleStart(server.name, slot);
      throw error;
    }
    if (slot.everConnected) slot.restarts += 1;
    slot.everConnected = true;
    slot.connectedAt = this.now();
    slot.lastError = undefined;
    slot.client = client;
    slot.legacy = client.getProtocolEra() === 'legacy';
    slot.toolNames = null;
    slot.resourceUris = null;
    client.setNotificationHandler('notifications/tools/list_changed', () => { if (slot.client === client) slot.toolNames = null; });
    client.setNotificationHandler('notifications/resources/list_changed', () => { if (slot.client === client) slot.resourceUris = null; });
    client.onclose = () => {
      if (slot.client !== client || this.#closed || this.#slots.get(server.name) !== slot) return;
      slot.client = null;
      slot.lastError = server.transport === 'stdio' ? 'the server process exited' : 'the server closed the connection';
      // Dying soon after each start doubles the wait; a long run before dying starts it over.
      slot.failures = this.now() - slot.connectedAt >= STABLE_MS ? 1 : slot.failures + 1;
      slot.retryAt = this.now() + backoffMs(slot.failures);
      if (server.transport === 'stdio') this.#scheduleStart(server.name, slot);
    };
    return client;
  }

  /** A local server is gw's own child: started again when its backoff ends, not left down until someone calls it. */
  #scheduleStart(name: string, slot: Slot): void {
    if (slot.restartTimer) clearTimeout(slot.restartTimer);
    slot.restartTimer = setTimeout(() => {
      slot.restartTimer = null;
      if (this.#closed || this.#slots.get(name) !== slot) return;
      // The timer may fire a millisecond before Date.now() reaches retryAt: its wait is over all the
      // same. Left as it was, client() would refuse as "retrying in 1 s" and nothing would start it.
      slot.retryAt = Math.min(slot.retryAt, this.now());
      this.client(name).catch(() => undefined);
    }, Math.max(0, slot.retryAt - this.now()));
    slot.restartTimer.unref();
  }

  #retire(slot: Slot): void {
    if (slot.restartTimer) clearTimeout(slot.restartTimer);
    slot.restartTimer = null;
    const client = slot.client;
    slot.client = null;
    void client?.close().catch(() => undefined);
  }

  /** Servers removed from the state: their clients close (a stdio child ends). */
  #sweep(): void {
    const names = new Set(this.servers().map((server) => server.name));
    for (const [name, slot] of this.#slots) {
      if (names.has(name)) continue;
      this.#slots.delete(name);
      this.#retire(slot);
    }
  }

  /** Every tool the server lists now (all pages), remembered as what `listed` and `hasTool` know. */
  async listTools(name: string): Promise<Tool[]> {
    const client = await this.client(name);
    const tools = await everyPage(async (cursor) => {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor });
      return { items: page.tools, nextCursor: page.nextCursor };
    });
    const slot = this.#slots.get(name);
    if (slot?.client === client) slot.toolNames = new Set(tools.map((tool) => tool.name));
    return tools;
  }

  /** Whether the server offers `tool`: its last listing on this connection, or a new one when that does not name it. */
  async hasTool(name: string, tool: string): Promise<boolean> {
    if (this.listed(name, tool)) return true;
    return (await this.listTools(name)).some((candidate) => candidate.name === tool);
  }

  /** Whether the last listing named this tool (no I/O): a bounded metrics label, never a caller's made-up name. */
  listed(name: string, tool: string): boolean {
    return this.#slots.get(name)?.toolNames?.has(tool) ?? false;
  }

  /** Every resource the server lists now (all pages), remembered as what `hasResource` knows. */
  async listResources(name: string): Promise<Resource[]> {
    const client = await this.client(name);
    const resources = await everyPage(async (cursor) => {
      const page = await client.listResources(cursor === undefined ? undefined : { cursor });
      return { items: page.resources, nextCursor: page.nextCursor };
    });
    const slot = this.#slots.get(name);
    if (slot?.client === client) slot.resourceUris = new Set(resources.map((resource) => resource.uri));
    return resources;
  }

  /** Whether the server lists `uri`: its last listing on this connection, or a new one when that does not name it. */
  async hasResource(name: string, uri: string): Promise<boolean> {
    if (this.#slots.get(name)?.resourceUris?.has(uri)) return true;
    return (await this.listResources(name)).some((resource) => resource.uri === uri);
  }

  has(name: string): boolean {
    return this.servers().some((server) => server.name === name);
  }

  health(): Record<string, UpstreamHealth> {
    this.#sweep();
    const report: Record<string, UpstreamHealth> = {};
    for (const server of this.servers()) {
      const slot = this.#slots.get(server.name);
      report[server.name] = {
        status: slot?.client ? 'up' : slot?.lastError ? 'down' : 'idle',
        restarts: slot?.restarts ?? 0,
        ...(slot?.lastError ? { last_error: slot.lastError } : {}),
      };
    }
    return report;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const slots = [...this.#slots.values()];
    this.#slots.clear();
    for (const slot of slots) if (slot.restartTimer) clearTimeout(slot.restartTimer);
    await Promise.all(slots.map((slot) => slot.client?.close().catch(() => undefined)).filter((closing) => closing !== undefined));
  }
}
