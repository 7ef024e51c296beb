// A GET to the local gateway with node:http rather than fetch: `gw token` runs inside `$(…)` of
// every curl, and on Node 20 fetch's first call costs ~100 ms of CPU (it loads undici and
// compiles its WebAssembly HTTP parser), more than the rest of the command.

export interface LocalAnswer {
  status: number;
  body: string;
}

/** Rejects on a refused connection, a transport error or past `timeoutMs`. */
export async function getLocal(url: string, options: { headers?: Record<string, string>; timeoutMs: number }): Promise<LocalAnswer> {
  // node:https (and TLS with it) only for a gateway served over TLS: the usual local one is plain HTTP.
  const client = new URL(url).protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise((resolve, reject) => {
    // No keep-alive agent: an idle pooled socket would keep the process alive after its answer.
    const request = client.get(url, { headers: options.headers, agent: false, signal: AbortSignal.timeout(options.timeoutMs) }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { body += chunk; });
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.once('error', reject);
    });
    request.once('error', reject);
  });
}
