// Shared pieces of the end-to-end tests: a jar that stops every `gw serve` a test
// started, a raw HTTP/1.1 connection (for what fetch and undici hide: early
// answers, half-sent bodies, who closes the socket), and audit-trail readers.
import { cp, readFile, readdir, stat } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';

export const CHAT_BODY = JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'hello' }] });

/**
 * A request that got past the door: served (2xx by the mock provider), or answered 501 by a
 * pipeline operation not built yet. Never an auth refusal (401) or a door error.
 */
export function passedTheDoor(status: number): boolean {
  return (status >= 200 && status < 300) || status === 501;
}

// Last resort: a test worker that exits (or is killed by a time-out) takes its gateways with it.
const everyChild = new Set<GatewayProcess['child']>();
process.once('exit', () => { for (const child of everyChild) child.kill('SIGKILL'); });

/** Starts gateways and stops whatever is still running at the end of a test (SIGTERM, then SIGKILL). */
export class GatewayJar {
  private readonly running: GatewayProcess[] = [];

  async start(options: Parameters<typeof startGatewayProcess>[0] = {}): Promise<GatewayProcess> {
    const gateway = await startGatewayProcess(options);
    this.running.push(gateway);
    everyChild.add(gateway.child);
    gateway.child.once('exit', () => everyChild.delete(gateway.child));
    return gateway;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.running.splice(0).map(async (gateway) => {
      const force = setTimeout(() => gateway.child.kill('SIGKILL'), 5_000);
      await gateway.stop('SIGTERM');
      clearTimeout(force);
    }));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` every `intervalMs` until it returns true; resolves with the time it took, rejects past the deadline. */
export async function waitUntil(check: () => boolean | Promise<boolean>, options: { timeoutMs?: number; intervalMs?: number; what?: string } = {}): Promise<number> {
  const started = performance.now();
  const deadline = started + (options.timeoutMs ?? 5_000);
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? 'a condition'}`);
    await sleep(options.intervalMs ?? 50);
  }
}

/**
 * Waits until the gateway serves state.json as it is now: its /health names the modification time
 * of the file it loaded (`components.state.file_id`: inode, size and times, which a write always changes). Instead of sleeping past
 * the 250 ms poll after a CLI change.
 */
export async function waitForState(gateway: { url: string; home: string }, options: { timeoutMs?: number } = {}): Promise<number> {
  return waitUntil(async () => {
    const file = await stat(path.join(gateway.home, 'state.json'), { bigint: true });
    const report: unknown = await (await fetch(`${gateway.url}/health`)).json();
    return servedFileId(report) === `${file.ino}:${file.size}:${file.mtimeNs}:${file.ctimeNs}`;
  }, { timeoutMs: options.timeoutMs ?? 10_000, intervalMs: 25, what: `${gateway.url} to load ${gateway.home}/state.json` });
}

/**
 * The same for instances on a PostgreSQL store: waits until each serves the store's current state
 * version (`components.state.version` in its /health; the store bumps it on every change).
 */
export async function waitForStoreState(gateways: Array<{ url: string }>, store: string, options: { timeoutMs?: number } = {}): Promise<number> {
  const client = new pg.Client({ connectionString: store });
  await client.connect();
  const written = await client.query<{ version: string }>('SELECT version FROM gw_state WHERE id = 1').finally(() => client.end());
  const version = Number(written.rows[0]?.version ?? 0);
  return waitUntil(async () => {
    const served = await Promise.all(gateways.map(async (gateway) => stateComponent(await (await fetch(`${gateway.url}/health`)).json())));
    return served.every((state) => state !== null && 'version' in state && typeof state.version === 'number' && state.version >= version);
  }, { timeoutMs: options.timeoutMs ?? 10_000, intervalMs: 25, what: `every instance to serve state version ${version}` });
}

function stateComponent(report: unknown): object | null {
  if (typeof report !== 'object' || report === null || !('components' in report)) return null;
  const { components } = report;
  if (typeof components !== 'object' || components === null || !('state' in components)) return null;
  return typeof components.state === 'object' ? components.state : null;
}

function servedFileId(report: unknown): string | null {
  const state = stateComponent(report);
  return state !== null && 'file_id' in state && typeof state.file_id === 'string' ? state.file_id : null;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Decodes a complete chunked body, or null while its last chunk has not arrived. */
function decodeChunked(bytes: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', offset);
    if (lineEnd < 0) return null;
    const size = Number.parseInt(bytes.subarray(offset, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    if (bytes.length < lineEnd + 2 + size + 2) return null;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
}

/** Parses one HTTP/1.1 response from the start of `bytes` once it is complete (content-length or chunked body). */
function parseRawResponse(bytes: Buffer): RawResponse | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = bytes.subarray(end + 4);
  const status = Number(statusLine.split(' ')[1]);
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    const body = decodeChunked(rest);
    return body ? { status, headers, body: body.toString('utf8') } : null;
  }
  const length = Number(headers['content-length'] ?? 0);
  if (rest.length < length) return null;
  return { status, headers, body: rest.subarray(0, length).toString('utf8') };
}

/** One raw TCP connection to the gateway: write what you like, see exactly what comes back and when the server closes. */
export class RawConnection {
  readonly socket: net.Socket;
  private received = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  /** 'end' (FIN), 'reset' (ECONNRESET/EPIPE) or 'close'; resolves when the server has closed the socket. */
  readonly closed: Promise<'end' | 'reset' | 'close'>;
  bytesWritten = 0;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => {
      socket.once('end', () => resolve('end'));
      socket.once('error', () => resolve('reset'));
      socket.once('close', () => resolve('close'));
    });
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: hostname, port: Number(port) }, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Resolves once written (false if the socket is already gone). */
  write(data: string | Buffer): Promise<boolean> {
    if (this.socket.destroyed || !this.socket.writable) return Promise.resolve(false);
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    return new Promise((resolve) => {
      this.socket.write(bytes, (error) => {
        if (!error) this.bytesWritten += bytes.length;
        resolve(!error);
      });
    });
  }

  /** The first complete response, or a rejection after `timeoutMs`. */
  async response(timeoutMs = 5_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = parseRawResponse(this.received);
      if (parsed) return parsed;
      const left = deadline - Date.now();
      if (left <= 0 || this.socket.destroyed) throw new Error(`no complete response; got ${JSON.stringify(this.received.toString('latin1').slice(0, 300))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 100));
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }

  receivedText(): string {
    return this.received.toString('latin1');
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** Request head for a raw connection. */
export function requestHead(method: string, url: string, headers: Record<string, string | number>): string {
  const { host, pathname, search } = new URL(url);
  const lines = [`${method} ${pathname}${search} HTTP/1.1`, `host: ${host}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export type AuditLine = Record<string, unknown> & { seq: number; kind: string };

export function auditFile(home: string): string {
  return path.join(home, 'audit', 'audit.jsonl');
}

/** Every complete record of the trail (a torn last line, if any, is left out). */
export async function readAudit(home: string): Promise<AuditLine[]> {
  const text = await readFile(auditFile(home), 'utf8');
  const lines = text.split('\n');
  lines.pop(); // after the last "\n": empty, or a torn line
  return lines.map((line) => JSON.parse(line) as AuditLine);
}

/**
 * Waits until checkpoint.json covers the trail's last record as it is now: `gw audit export`
 * exports only what a checkpoint signs, and a running gateway writes one at most every second.
 */
export async function waitForCheckpoint(home: string, options: { timeoutMs?: number } = {}): Promise<number> {
  const last = (await readAudit(home)).at(-1)?.seq ?? 0;
  return waitUntil(async () => {
    const text = await readFile(path.join(home, 'audit', 'checkpoint.json'), 'utf8').catch(() => '{}');
    const signed: unknown = JSON.parse(text);
    return typeof signed === 'object' && signed !== null && 'seq' in signed && typeof signed.seq === 'number' && signed.seq >= last;
  }, { timeoutMs: options.timeoutMs ?? 10_000, intervalMs: 50, what: `a checkpoint at seq ${last} in ${home}` });
}

/**
 * The trail once it has stopped growing for `quietMs`: a record is written when its call ends, and a
 * coding tool's last calls (an MCP session's close, a model call still streaming) can end after the
 * tool exits, later still on a loaded machine. A fixed sleep read some of them and not others.
 */
export async function readSettledAudit(home: string, options: { quietMs?: number; timeoutMs?: number } = {}): Promise<AuditLine[]> {
  const quietMs = options.quietMs ?? 1_000;
  const deadline = performance.now() + (options.timeoutMs ?? 20_000);
  let lines = await readAudit(home);
  let stableSince = performance.now();
  while (performance.now() - stableSince < quietMs) {
    if (performance.now() > deadline) throw new Error(`the audit trail was still growing after ${options.timeoutMs ?? 20_000} ms`);
    await sleep(100);
    const next = await readAudit(home);
    if (next.length !== lines.length) stableSince = performance.now();
    lines = next;
  }
  return lines;
}

/** Every regular file under `dir`, recursively. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = await Promise.all(entries.map(async (entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(full);
    return (await stat(full)).isFile() ? [full] : [];
  }));
  return files.flat();
}

export async function copyHome(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true });
}

/**
 * The token for an approved device login, polled as a real client polls: a running gw sees an
 * approval made from the shell at its next state read (every 250 ms, later on a busy machine),
 * so an `authorization_pending` answer waits the 5 s interval and asks again.
 */
export async function takeApprovedToken(hubUrl: string, deviceCode: string, attempts = 4): Promise<Record<string, unknown>> {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(`${hubUrl}/oauth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode }),
    });
    const answer = await response.json() as Record<string, unknown>;
    if (answer.error !== 'authorization_pending' || attempt >= attempts) return answer;
    await sleep(5_100);
  }
}
