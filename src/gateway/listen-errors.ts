// One clear line for the ways listen() fails, instead of a stack trace.
export function describeListenError(error: unknown, host: string, port: number): string {
  const code = (error as { code?: string })?.code;
  switch (code) {
    case 'EADDRINUSE': return `port ${port} on ${host} is already in use: stop the other process or choose another port with --port`;
    case 'EACCES': return `not allowed to listen on ${host}:${port}: choose a port above 1023 with --port`;
    case 'EADDRNOTAVAIL': return `cannot listen on ${host}: this machine has no such address (try --host 127.0.0.1)`;
    case 'ENOTFOUND': return `cannot listen on ${host}: the host name does not resolve`;
    default: return `cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
