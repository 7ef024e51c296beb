// A refusal sent while the client is still sending its body (too large, over its memory share)
// ends with `connection: close`. Closing the socket at once would throw away the client's unread
// bytes, and a TCP stack answers bytes that arrive for a closed socket with a reset, which can
// destroy the refusal before the client reads it: the client sees "connection reset" instead of
// a 429 or 413 in its own format. So the socket lingers, as nginx's lingering_close does: the
// answer is sent and the write side closed (FIN), then what still arrives is read and dropped
// (never held) until the client stops or LINGER_MS passes, and only then is the socket closed.
import type { Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';

/** Long enough for a client to read the answer and stop sending; short enough that a slow sender cannot hold the socket. */
const LINGER_MS = 2_000;

export function lingerOnClose(request: IncomingMessage, socket: Socket | null): void {
  if (!socket || socket.destroyed) return;
  // Node's server ends a `connection: close` response with destroySoon(): end, then destroy.
  socket.destroySoon = function lingeringDestroySoon(this: Socket) {
    if (this.writable) this.end();
    request.resume();
    const close = () => { clearTimeout(timer); this.destroy(); };
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    this.once('end', close);
    this.once('close', () => clearTimeout(timer));
  };
}
