// One small real request to check a provider's URL and key (`gw providers test`).
// Lives here because undici belongs to upstream/. The response body is read and
// dropped, never returned: error bodies may echo part of the key.
import { performance } from 'node:perf_hooks';
import { request } from 'undici';

export interface ProbeResult {
  /** HTTP status, or null when no response came (refused, DNS, time-out). */
  status: number | null;
  ok: boolean;
  latencyMs: number;
  /** Why there was no response, as a short phrase (an error code, "timed out"). */
  failure?: string;
}

export async function probeProvider(url: string, headers: Record<string, string>, timeoutMs: number): Promise<ProbeResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await request(url, {
      method: 'GET',
      headers,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body.dump();
    return { status: response.statusCode, ok: response.statusCode >= 200 && response.statusCode < 300, latencyMs: elapsed() };
  } catch (error) {
    return { status: null, ok: false, latencyMs: elapsed(), failure: describeFailure(error) };
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timed out';
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timed out';
  const cause = error instanceof Error && error.cause instanceof Error && 'code' in error.cause ? String(error.cause.code) : undefined;
  return cause ?? code ?? (error instanceof Error ? error.message : String(error));
}
