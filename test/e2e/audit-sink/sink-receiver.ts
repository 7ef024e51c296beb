// A SIEM's HTTP collector on loopback, for the audit sink's tests: takes POSTed
// application/x-ndjson batches, keeps each event once by its uid (metadata.uid) in arrival
// order, counts repeats and out-of-order events (each chain's events in seq order from 1: several
// instances of one store stream their chains to one receiver, interleaved), and remembers every Authorization header.
// It can be stopped and started again on the same port (a receiver that is down), and told to
// store a batch yet drop the connection before answering (delivered, never acknowledged).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface EventHead {
  uid: string;
  sequence: number;
}

interface ReceivedEvent {
  metadata: EventHead;
  attestation_list?: Array<{ chain_uid?: string }>;
}

export class SinkReceiver {
  readonly lines: string[] = [];
  readonly authorizations = new Set<string>();
  readonly contentTypes = new Set<string>();
  repeats = 0;
  outOfOrder = 0;
  batches = 0;
  /** Batches still to store and then answer by destroying the socket (no status line). */
  dropAnswers = 0;
  /** When set, a request without exactly this Authorization gets 401 and is not stored. */
  requiredAuthorization: string | undefined;
  private readonly seen = new Set<string>();
  private readonly lastSequence = new Map<string | undefined, number>();
  private server: Server | undefined;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/ingest`;
  }

  async start(): Promise<void> {
    const server = createServer((request, response) => void this.take(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The uids kept, in order. */
  uids(): string[] {
    return this.lines.map((line) => (JSON.parse(line) as { metadata: { uid: string } }).metadata.uid);
  }

  private store(line: string): void {
    const event = JSON.parse(line) as ReceivedEvent;
    if (this.seen.has(event.metadata.uid)) {
      this.repeats += 1;
      return;
    }
    const chain = event.attestation_list?.[0]?.chain_uid;
    // A new chain starts at 1 (whether the chain before it ended is verify --ocsf's to check).
    if (event.metadata.sequence !== (this.lastSequence.get(chain) ?? 0) + 1) this.outOfOrder += 1;
    this.lastSequence.set(chain, event.metadata.sequence);
    this.seen.add(event.metadata.uid);
    this.lines.push(line);
  }

  private async take(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    this.authorizations.add(request.headers.authorization ?? '(none)');
    this.contentTypes.add(request.headers['content-type'] ?? '(none)');
    if (this.requiredAuthorization !== undefined && request.headers.authorization !== this.requiredAuthorization) {
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad token"}');
      return;
    }
    for (const line of body.split('\n')) if (line !== '') this.store(line);
    this.batches += 1;
    if (this.dropAnswers > 0) {
      this.dropAnswers -= 1;
      request.socket.destroy();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  }
}
