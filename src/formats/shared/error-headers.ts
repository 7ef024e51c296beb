// The headers every dialect's error response carries: the error's own (www-authenticate…),
// and retry-after when the provider said how long to wait (RFC 9110 §10.2.3).
import type { WireErrorInput } from '../../canonical/codec.js';

export function errorHeaders(error: WireErrorInput): Record<string, string> {
  const headers = { ...error.headers };
  if (error.retryAfterSeconds !== undefined && headers['retry-after'] === undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return headers;
}
