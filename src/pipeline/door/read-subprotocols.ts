// A WebSocket upgrade's subprotocols, read at the door: the local guard looks for a key in them
// before anything else runs, and the realtime corridor strips that key before the provider sees them.
import type { IncomingHttpHeaders } from 'node:http';

/** Browsers cannot set headers on a WebSocket, so OpenAI's clients put the key in a subprotocol. */
export const KEY_PROTOCOL_PREFIX = 'openai-insecure-api-key.';

export function readSubprotocols(headers: IncomingHttpHeaders): string[] {
  return String(headers['sec-websocket-protocol'] ?? '').split(',').map((value) => value.trim()).filter(Boolean);
}
