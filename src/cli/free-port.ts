// Which port a sidecar can take when the usual one is taken (by the hub itself on a
// one-machine trial, or anything else): the next free one above it, asked of the OS
// by binding and closing at once. A hint for a message, not a reservation.
import { createServer } from 'node:net';

/** Whether nothing listens on host:port now. */
export async function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return (await listenProblem(port, host)) === null;
}

/** Why listening on host:port fails now (`EADDRINUSE`, `EACCES`, …), or null when it would work. */
export function listenProblem(port: number, host: string): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    server.listen(port, host, () => server.close(() => resolve(null)));
  });
}

/** The first free port after `taken` (up to 50 tries), else one the OS picks. */
export async function nextFreePort(taken: number, host = '127.0.0.1'): Promise<number> {
  for (let port = taken + 1; port <= Math.min(taken + 50, 65535); port += 1) {
    if (await isPortFree(port, host)) return port;
  }
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
