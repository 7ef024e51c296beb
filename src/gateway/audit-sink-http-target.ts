// The audit sink's HTTP receiver (setting audit_sink = https://…): one POST of
// application/x-ndjson per batch with the Bearer token read from gw serve's environment. Only
// a 2xx acknowledges a batch. The token goes in the header and nowhere else: errors name the
// status or the network failure, never a header, and are scrubbed of the token anyway.
import type { SinkTarget } from '../audit/sink/audit-sink.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';

// A SIEM's HTTP collector answers in well under a second; a batch is at most a few MiB.
const SEND_TIMEOUT_MS = 30_000;

function scrub(text: string, token: string | null): string {
  return token ? text.split(token).join('[token]') : text;
}

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
  if ((error as { code?: unknown }).code === 'GW_ERR_UPSTREAM_TIMEOUT') return `the receiver did not answer in time${code}`;
  return `the receiver could not be reached${code}`;
}

/** The URL as /health (which is open) and the logs show it: a query string may hold a collector's key, so it is not shown. */
function displayName(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
}

export function createHttpSinkTarget(client: UpstreamClient, url: string, token: string | null): SinkTarget {
  const headers: Record<string, string> = { 'content-type': 'application/x-ndjson', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  return {
    name: displayName(url),
    async deliver(lines, stopping) {
      let status: number;
      try {
        const response = await client.send({ url, method: 'POST', headers, body: lines.map((line) => `${line}\n`).join(''), signal: AbortSignal.any([stopping, AbortSignal.timeout(SEND_TIMEOUT_MS)]) });
        status = response.status;
        for await (const chunk of response.body) void chunk; // read to the end so the connection is reused
      } catch (error) {
        // No `cause`: the error from the wire may carry the request (its Authorization header); only the scrubbed reason leaves.
        // eslint-disable-next-line preserve-caught-error
        throw new Error(scrub(reasonOf(error), token));
      }
      if (status < 200 || status >= 300) throw new Error(`the receiver answered HTTP ${status}`);
    },
  };
}
