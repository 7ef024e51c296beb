// Why gw could not reach its hub, from real failed fetches (not hand-made errors):
// undici says only "fetch failed" and keeps the reason in `cause`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { describeNetworkFailure } from '../../../src/login/describe-network-failure.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(onRequest: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(onRequest);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function failureOf(url: string, timeoutMs = 5_000): Promise<string> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return describeNetworkFailure(error, timeoutMs);
  }
  throw new Error(`${url} answered`);
}

describe('describeNetworkFailure', () => {
  it('names a refused connection', async () => {
    const port = await listen(() => undefined);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect(await failureOf(`http://127.0.0.1:${port}/`)).toMatch(/^connection refused: .*\[ECONNREFUSED\]$/);
  });

  it('names a host name DNS does not know', async () => {
    // .invalid never resolves (RFC 6761); offline, the lookup fails as EAI_AGAIN instead.
    expect(await failureOf('http://gw-hub.invalid/')).toMatch(/DNS .*\[(ENOTFOUND|EAI_AGAIN)\]$/);
  });

  it('names a TLS failure: https to a port that speaks plain http', async () => {
    const port = await listen((_request, response) => response.end('plain'));
    expect(await failureOf(`https://127.0.0.1:${port}/`)).toMatch(/^TLS error: .*\[ERR_SSL_\w+\]$/);
  });

  it('names a time-out with its length', async () => {
    const port = await listen(() => undefined);
    expect(await failureOf(`http://127.0.0.1:${port}/`, 300)).toBe('time-out: no answer within 0.3 s');
  });

  it('explains a port that fetch refuses before connecting (port 1)', async () => {
    expect(await failureOf('http://127.0.0.1:1/')).toMatch(/refuses that port/);
  });
});
