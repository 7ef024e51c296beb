// GenAI SSE streams (alt=sse) carry an error as a data event with the error object.
import type { GatewayError } from '../../errors.js';
import { encodeGoogleError } from './encode-error.js';

export function encodeGoogleStreamError(error: GatewayError): string {
  return `data: ${JSON.stringify(encodeGoogleError(error).body)}\n\n`;
}
