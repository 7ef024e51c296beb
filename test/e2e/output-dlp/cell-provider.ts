// A loopback provider of every dialect gw streams from (OpenAI Chat and Responses, Anthropic
// Messages, GenAI, Bedrock ConverseStream) that answers with one cell of the output DLP
// matrix (test/support/output-dlp-cells.ts): the request's text names the cell
// (`cell:<name>;`), the path names the dialect. Each event is its own write, a moment after
// the last, as a model's tokens arrive.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeEventFrame, encodeExceptionFrame } from '../../../src/formats/bedrock-converse/event-stream-frames.js';
import type { WireEvent } from '../../../src/canonical/codec.js';
import type { CodecName } from '../../../src/formats/codec-registry.js';
import { cellEvents, cleanEvents, OUTPUT_CELLS, type OutputCell } from '../../support/output-dlp-cells.js';

export interface CellProvider { url: string; close(): Promise<void> }

function dialectOf(path: string): CodecName {
  if (path.includes('/converse')) return 'bedrock-converse';
  if (path.includes(':streamGenerateContent')) return 'google-genai';
  if (path.includes('/messages')) return 'anthropic-messages';
  if (path.includes('/responses')) return 'openai-responses';
  return 'openai-chat';
}

/** A request holding this gets the clean answer of the text cell's shape. */
export const CLEAN_MARKER = 'cell:clean;';

/** The cell a request asks for: `cell:<name>;` in its body. */
export function cellMarker(cell: OutputCell): string {
  return `cell:${cell};`;
}

function cellOf(body: string): OutputCell | undefined {
  return (Object.keys(OUTPUT_CELLS) as OutputCell[]).find((cell) => body.includes(cellMarker(cell)));
}

function frameOf(event: WireEvent): Uint8Array {
  const name = event.event ?? 'unknown';
  const payload: unknown = JSON.parse(event.data);
  if (!name.endsWith('Exception')) return encodeEventFrame(name, payload);
  return encodeExceptionFrame(name, typeof payload === 'object' && payload !== null && 'message' in payload ? String(payload.message) : '');
}

/** An event as the provider writes it: an SSE event, or Bedrock's binary frame. */
export function wireBytes(dialect: CodecName, event: WireEvent): string | Uint8Array {
  if (dialect === 'bedrock-converse') return frameOf(event);
  return `${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 1));

export async function startCellProvider(): Promise<CellProvider> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const dialect = dialectOf(request.url ?? '/');
      const body = Buffer.concat(chunks).toString('utf8');
      const cell = cellOf(body);
      const events = body.includes(CLEAN_MARKER) ? cleanEvents(dialect) : cell === undefined ? undefined : cellEvents(dialect, cell);
      if (!Array.isArray(events)) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `no such cell for ${dialect}`, type: 'invalid_request_error' } }));
        return;
      }
            response.writeHead(200, { 'content-type': dialect === 'bedrock-converse' ? 'application/vnd.amazon.eventstream' : 'text/event-stream' });
      void (async () => {
        for (const event of events) {
          if (response.destroyed) return;
          response.write(wireBytes(dialect, event));
          await pause();
        }
        response.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
