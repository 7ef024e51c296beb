// GenAI SSE streams (alt=sse) carry an error as a data event with the error object,
// framed with "\r\n" as Google frames the rest of the stream.
import type { WireErrorInput } from '../../canonical/codec.js';
import { encodeSseEvent } from '../../streaming/sse-encoder.js';
import { encodeGoogleCanonicalError } from './encode-error.js';

export function encodeGoogleStreamError(error: WireErrorInput): string {
  return encodeSseEvent({ data: JSON.stringify(encodeGoogleCanonicalError(error)) }, { lineEnding: '\r\n' });
}
