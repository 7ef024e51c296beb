// The rest of a passthrough path (`/openai_passthrough/<rest>`), read from the raw
// request target, never from the router's decoded parameter: find-my-way decodes
// `%2F` into `/`, and the URL parser of the upstream call resolves `..`, so either
// would let a client leave the provider's base path (issue "one governed corridor").
// Refused, never repaired: a dot segment (`.`, `..`, also `%2e%2e`), an encoded
// separator or delimiter (`%2F`, `%5C`, `%3F`, `%23`, any case), a backslash, and
// the same hidden under a second layer of encoding (`%252F`), since a proxy or
// provider that decodes once more would turn it into a separator. RFC 3986 §3.3, §5.2.4.
import { GatewayError } from '../../errors.js';

/** Per segment, after decoding (up to three layers): what may not appear. */
const FORBIDDEN_DECODED = /[/\\?#\0]/;
const MAX_DECODE_LAYERS = 3;

function refuse(reason: string): GatewayError {
  return new GatewayError('GW_ERR_REQUEST_INVALID', { message: `The passthrough path is refused: ${reason}. Send the provider path as it is, without dot segments or encoded separators.` });
}

/** Decodes a segment until it stops changing; null when a layer is not valid percent-encoding. */
function decodeLayers(segment: string): string[] | null {
  const layers = [segment];
  let current = segment;
  for (let layer = 0; layer < MAX_DECODE_LAYERS && current.includes('%'); layer += 1) {
    try {
      current = decodeURIComponent(current);
    } catch {
      return null;
    }
    layers.push(current);
  }
  return layers;
}

function checkSegment(segment: string): void {
  const layers = decodeLayers(segment);
  if (layers === null) throw refuse('a segment is not valid percent-encoding');
  for (const text of layers) {
    if (text === '.' || text === '..') throw refuse('it has a dot segment (. or ..)');
    // The raw segment cannot hold "/", "?" or "#" (they end it); a decoded one must not either.
    if (FORBIDDEN_DECODED.test(text)) throw refuse('it has an encoded "/", "\\", "?", "#" or NUL');
  }
}

/**
 * `rawTarget` is the request target as received (`/openai_passthrough/v1/files?x=1`).
 * Returns the rest after the first segment (`/v1/files`), still percent-encoded as
 * the client sent it, or throws GW_ERR_REQUEST_INVALID.
 */
export function readPassthroughPath(rawTarget: string): string {
  const queryStart = rawTarget.indexOf('?');
  const path = queryStart >= 0 ? rawTarget.slice(0, queryStart) : rawTarget;
  if (path.includes('#')) throw refuse('it has a fragment');
  const restStart = path.indexOf('/', 1);
  const rest = restStart >= 0 ? path.slice(restStart) : '/';
  for (const segment of rest.split('/').slice(1)) checkSegment(segment);
  return rest;
}
