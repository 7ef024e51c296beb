// Providers answered inside the process (the built-in mock) sit in front of the
// network client, as undici's MockAgent sits in front of a dispatcher: the pipeline
// sends every provider call the same way, and only this wrapper knows that some
// URLs never reach a socket.
import { Readable } from 'node:stream';
import type { UpstreamClient, UpstreamRequest, UpstreamResponse } from './upstream-client.js';

export interface InProcessAnswer {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array>;
}

/** Answers a call in-process, or returns null to let it go over the network. */
export type InProcessProvider = (call: { url: string; body: Buffer | string | null }) => InProcessAnswer | null;

export function withInProcessProviders(network: UpstreamClient, answer: InProcessProvider): UpstreamClient {
  return {
    async send(call: UpstreamRequest): Promise<UpstreamResponse> {
      const body = call.body instanceof Readable ? null : call.body;
      const local = call.body instanceof Readable ? null : answer({ url: call.url, body });
      if (local === null) return network.send(call);
      return { status: local.status, headers: local.headers, body: Readable.from(local.body, { objectMode: false }) };
    },
    // The built-in mock has no realtime: sockets always go to the network.
    ...(network.openWebSocket ? { openWebSocket: network.openWebSocket } : {}),
    close: () => network.close(),
  };
}
