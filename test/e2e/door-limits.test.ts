// The door of the real server: a stranger's huge body is refused before it is
// read, an over-limit body gets a 413, bad input is answered in each family's
// own error shape, and a flood of refusals from 10,000 origins leaves the
// server up, counted and within bounded memory.
import { readFile } from 'node:fs/promises';
import { Pool, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeHome, runGwSetup as runGw, type GatewayProcess } from '../support/gateway-process.js';
import { CHAT_BODY, GatewayJar, RawConnection, readAudit, requestHead, sleep, waitForState } from './helpers.js';

const MiB = 1024 * 1024;

/** Sends `total` bytes as 64 KiB chunks (chunked encoding), stopping as soon as a response has arrived or the socket is gone. */
async function writeChunksUntilAnswered(connection: RawConnection, total: number): Promise<void> {
  const piece = Buffer.alloc(64 * 1024, 0x20);
  const chunk = Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
  for (let sent = 0; sent < total; sent += piece.length) {
    if (connection.receivedText().startsWith('HTTP/1.1')) return;
    if (!await connection.write(chunk)) return;
  }
  await connection.write('0\r\n\r\n');
}

async function vmRssKiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
}

/** The fields any of the three families' error bodies may have. */
interface WireErrorBody {
  type?: string;
  error: { code?: unknown; message?: unknown; param?: unknown; type?: unknown; status?: unknown };
}

function metricSum(text: string, name: string): number {
  return text.split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

describe('the door, with body_limit_bytes 1MiB', () => {
  const jar = new GatewayJar();
  let gateway: GatewayProcess;

  beforeAll(async () => {
    const home = await makeHome();
    const set = await runGw(['settings', 'set', 'body_limit_bytes', '1MiB'], { home });
    expect(set.code, set.stderr).toBe(0);
    gateway = await jar.start({ home });
    expect(gateway.bootstrapKey).toBeTruthy();
  }, 30_000);
  afterAll(async () => { await jar.stopAll(); });

  it('a stranger announcing 50 MB gets 401 and connection: close after 64 KiB, and the socket is closed', async () => {
    const connection = await RawConnection.open(gateway.url);
    try {
      await connection.write(requestHead('POST', `${gateway.url}/v1/chat/completions`, { 'content-type': 'application/json', 'content-length': 50 * 1000 * 1000 }));
      await connection.write(Buffer.alloc(64 * 1024, 0x61));
      const response = await connection.response(3_000);
      expect(connection.bytesWritten).toBeLessThan(70 * 1024);
      expect(response.status).toBe(401);
      expect(response.headers.connection).toBe('close');
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'auth_missing', type: 'authentication_error' } });
      const closedBy = await Promise.race([connection.closed, sleep(3_000).then(() => 'still open')]);
      expect(closedBy).not.toBe('still open');
    } finally {
      connection.destroy();
    }
  });

  const tooLargeShape = {
    error: { type: 'invalid_request_error', param: null, code: 'request_too_large', message: expect.stringMatching(/larger than this gateway accepts/) },
  };

  it('a keyed 2 MiB body (undici, content-length): 413 in the OpenAI shape, connection: close', async () => {
    const response = await request(`${gateway.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${gateway.bootstrapKey}`, 'content-type': 'application/json' }, body: Buffer.alloc(2 * MiB, 0x20),
    });
    expect(response.statusCode).toBe(413);
    expect(response.headers.connection).toBe('close');
    expect(await response.body.json()).toEqual(tooLargeShape);
  });

  it('a keyed body announced as 2 MiB: the 413 does not wait for the body (only 64 KiB sent), and the socket is closed', async () => {
    const connection = await RawConnection.open(gateway.url);
    try {
      await connection.write(requestHead('POST', `${gateway.url}/v1/chat/completions`, {
        'x-api-key': gateway.bootstrapKey!, 'content-type': 'application/json', 'content-length': 2 * MiB,
      }));
      await connection.write(Buffer.alloc(64 * 1024, 0x20));
      const response = await connection.response(3_000);
      expect(response.status).toBe(413);
      expect(response.headers.connection).toBe('close');
      expect(JSON.parse(response.body)).toEqual(tooLargeShape);
      const closedBy = await Promise.race([connection.closed, sleep(3_000).then(() => 'still open')]);
      expect(closedBy).not.toBe('still open');
    } finally {
      connection.destroy();
    }
  });

  it('a keyed 2 MiB chunked body (no content-length): 413 in the OpenAI shape', async () => {
    const connection = await RawConnection.open(gateway.url);
    try {
      await connection.write(requestHead('POST', `${gateway.url}/v1/chat/completions`, {
        'x-gw-vk': gateway.bootstrapKey!, 'content-type': 'application/json', 'transfer-encoding': 'chunked',
      }));
      await writeChunksUntilAnswered(connection, 2 * MiB);
      const response = await connection.response();
      expect(response.status).toBe(413);
      const body = JSON.parse(response.body) as { error: Record<string, unknown> };
      expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
      expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'request_too_large' });
    } finally {
      connection.destroy();
    }
  });

  it('a body_limit_bytes change applies to a running server, for chunked bodies too', async () => {
    const set = await runGw(['settings', 'set', 'body_limit_bytes', '256KiB'], { home: gateway.home });
    expect(set.code).toBe(0);
    try {
      await waitForState(gateway);
      // A raw socket, as above: an HTTP client still writing when the 413 and the close land may
      // report EPIPE instead of the answer, which is a race in the client, not in gw.
      const connection = await RawConnection.open(gateway.url);
      try {
        await connection.write(requestHead('POST', `${gateway.url}/v1/chat/completions`, {
          'x-gw-vk': gateway.bootstrapKey!, 'content-type': 'application/json', 'transfer-encoding': 'chunked',
        }));
        await writeChunksUntilAnswered(connection, 512 * 1024);
        const response = await connection.response();
        expect(response.status).toBe(413);
        expect((JSON.parse(response.body) as { error: { message: string } }).error.message).toContain('262144 bytes');
      } finally {
        connection.destroy();
      }
    } finally {
      await runGw(['settings', 'set', 'body_limit_bytes', '1MiB'], { home: gateway.home });
      await waitForState(gateway);
    }
  });

  const families = [
    {
      family: 'OpenAI', path: '/v1/chat/completions', unknown: '/v1/no-such-thing',
      check: (_status: number, body: WireErrorBody) => {
        expect(Object.keys(body)).toEqual(['error']);
        expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
        expect(body.error.type).toBe('invalid_request_error');
        expect(body.error.param).toBeNull();
        return body.error.code as string;
      },
    },
    {
      family: 'Anthropic', path: '/v1/messages', unknown: '/v1/messages/no/such/thing',
      check: (_status: number, body: WireErrorBody) => {
        expect(Object.keys(body).sort()).toEqual(['error', 'type']);
        expect(body.type).toBe('error');
        expect(Object.keys(body.error).sort()).toEqual(['message', 'type']);
        return body.error.type as string;
      },
    },
    {
      family: 'GenAI', path: '/genai/v1beta/models/x:generateContent', unknown: '/genai/v1beta/no-such-thing',
      check: (status: number, body: WireErrorBody) => {
        expect(Object.keys(body)).toEqual(['error']);
        expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'status']);
        expect(body.error.code).toBe(status);
        return body.error.status as string;
      },
    },
  ];
  const expected: Record<string, Record<string, string>> = {
    OpenAI: { malformed: 'request_malformed_json', mediaType: 'request_unsupported_media_type', unknown: 'route_not_found' },
    Anthropic: { malformed: 'invalid_request_error', mediaType: 'invalid_request_error', unknown: 'not_found_error' },
    GenAI: { malformed: 'INVALID_ARGUMENT', mediaType: 'INVALID_ARGUMENT', unknown: 'NOT_FOUND' },
  };

  it.each(families)('$family: malformed JSON 400, wrong content type 415, unknown route 404, each in its shape', async ({ family, path, unknown, check }) => {
    const headers = { 'x-gw-vk': gateway.bootstrapKey! };
    const malformed = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"model": "mock/echo", bad' });
    expect(malformed.status).toBe(400);
    expect(check(400, await malformed.json() as WireErrorBody)).toBe(expected[family]!.malformed);

    const mediaType = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: CHAT_BODY });
    expect(mediaType.status).toBe(415);
    expect(check(415, await mediaType.json() as WireErrorBody)).toBe(expected[family]!.mediaType);

    const missing = await fetch(`${gateway.url}${unknown}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: CHAT_BODY });
    expect(missing.status).toBe(404);
    expect(check(404, await missing.json() as WireErrorBody)).toBe(expected[family]!.unknown);
  });
});

describe('a refusal flood from 10,000 origins behind a trusted proxy', () => {
  const jar = new GatewayJar();
  afterEach(async () => { await jar.stopAll(); });
  afterAll(async () => { await jar.stopAll(); });

  it('stays up, counts every refusal, and keeps its memory bounded', async () => {
    const first = await jar.start();
    const set = await runGw(['settings', 'set', 'trusted_proxies', '127.0.0.1'], { home: first.home });
    expect(set.code, set.stderr).toBe(0);
    expect(await first.stop()).toBe(0);
    const gateway = await jar.start({ home: first.home });
    const pid = gateway.child.pid!;
    const rssBefore = await vmRssKiB(pid);

    const total = 10_000;
    const pool = new Pool(gateway.url, { connections: 32, pipelining: 1 });
    const statuses = new Map<number, number>();
    let next = 0;
    let peakRss = rssBefore;
    const worker = async () => {
      while (next < total) {
        const index = next++;
        const forwarded = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
        const response = await pool.request({ method: 'GET', path: '/v1/models', headers: { 'x-forwarded-for': forwarded } });
        await response.body.dump();
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        if (index % 2_000 === 0) peakRss = Math.max(peakRss, await vmRssKiB(pid));
      }
    };
    try {
      await Promise.all(Array.from({ length: 32 }, worker));
    } finally {
      await pool.close();
    }
    expect(Object.fromEntries(statuses)).toEqual({ 401: total });

    const health = await fetch(`${gateway.url}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('ok');
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    expect(metricSum(metrics, 'gw_auth_refusals_total')).toBeGreaterThanOrEqual(total);
    // Origins came from X-Forwarded-For (the proxy is trusted), and their tracking is bounded.
    const tracked = metricSum(metrics, 'gw_auth_refused_origins');
    expect(tracked).toBeGreaterThan(1_000);
    expect(tracked).toBeLessThanOrEqual(total);
    peakRss = Math.max(peakRss, await vmRssKiB(pid));
    expect(peakRss / 1024, `peak RSS ${Math.round(peakRss / 1024)} MB (at start ${Math.round(rssBefore / 1024)} MB)`).toBeLessThan(300);

    expect(await gateway.stop()).toBe(0);
    const refused = (await readAudit(gateway.home)).filter((record) => record.kind === 'auth.refused');
    expect(refused.some((record) => String(record.origin).startsWith('10.'))).toBe(true);
    expect((await runGw(['audit', 'verify'], { home: gateway.home })).code).toBe(0);
  }, 60_000);
});
