// The pipeline's cancel object stands in for an AbortSignal: it must behave like one
// where the pipeline and undici rely on it, and undici must really stop a call on it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientCancel, toAbortSignal } from '../../../src/upstream/cancel-signal.js';
import { createUpstreamClient } from '../../../src/upstream/upstream-client.js';

describe('ClientCancel', () => {
  it('calls each listener once, in order, with the reason set, and not after removal', () => {
    const cancel = new ClientCancel();
    const heard: string[] = [];
    const first = () => heard.push(`first:${String(cancel.reason)}`);
    const removed = () => heard.push('removed');
    cancel.addEventListener('abort', first);
    cancel.addEventListener('abort', first); // the same listener twice counts once, as on an EventTarget
    cancel.addEventListener('abort', removed);
    cancel.addEventListener('abort', () => heard.push(`second:${cancel.aborted}`));
    cancel.removeEventListener('abort', removed);
    expect(cancel.aborted).toBe(false);
    cancel.abort('gone');
    cancel.abort('again');
    expect(heard).toEqual(['first:gone', 'second:true']);
    expect(cancel.reason).toBe('gone');
  });

  it('does not call a listener added after the abort (an AbortSignal does not either)', () => {
    const cancel = new ClientCancel();
    cancel.abort(new Error('client disconnected'));
    let called = false;
    cancel.addEventListener('abort', () => { called = true; });
    expect(called).toBe(false);
  });

  it('keeps telling the other listeners when one throws, and does not throw itself', () => {
    const cancel = new ClientCancel();
    let later = false;
    cancel.addEventListener('abort', () => { throw new Error('listener bug'); });
    cancel.addEventListener('abort', () => { later = true; });
    expect(() => cancel.abort('gone')).not.toThrow();
    expect(later).toBe(true);
  });

  it('toAbortSignal gives a real AbortSignal that follows it, aborted already or later', () => {
    const before = new ClientCancel();
    before.abort('early');
    expect(toAbortSignal(before)).toMatchObject({ aborted: true, reason: 'early' });
    const after = new ClientCancel();
    const signal = toAbortSignal(after);
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(false);
    after.abort('late');
    expect(signal).toMatchObject({ aborted: true, reason: 'late' });
    const real = new AbortController().signal;
    expect(toAbortSignal(real)).toBe(real);
  });
});

describe('the upstream client with a ClientCancel', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => { server?.closeAllConnections(); if (server) server.close(() => resolve()); else resolve(); }));

  it('aborts a call still waiting for its headers, and the provider sees the connection close', async () => {
    let closedByGateway!: () => void;
    const providerSawClose = new Promise<void>((resolve) => { closedByGateway = resolve; });
    let requestArrived!: () => void;
    const arrived = new Promise<void>((resolve) => { requestArrived = resolve; });
    server = http.createServer((request) => {
      requestArrived();
      request.socket.on('close', () => closedByGateway()); // never answers
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = createUpstreamClient();
    const cancel = new ClientCancel();
    const call = client.send({ url: `http://127.0.0.1:${port}/v1/chat/completions`, method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from('{}'), signal: cancel });
    await arrived;
    cancel.abort(new Error('client disconnected'));
    await expect(call).rejects.toThrow();
    await providerSawClose;
    await client.close();
  });

  it('stops a body that is still arriving', async () => {
    server = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: {"n":1}\n\n'); // and nothing more, ever
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = createUpstreamClient();
    const cancel = new ClientCancel();
    const reply = await client.send({ url: `http://127.0.0.1:${port}/v1/chat/completions`, method: 'POST', headers: {}, body: Buffer.from('{}'), signal: cancel });
    const chunks: string[] = [];
    const reading = (async () => { for await (const chunk of reply.body) { chunks.push(String(chunk)); cancel.abort(new Error('client disconnected')); } })();
    await expect(reading).rejects.toThrow();
    expect(chunks.join('')).toContain('"n":1');
    await client.close();
  });
});
