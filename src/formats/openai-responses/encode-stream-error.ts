// A Responses stream that fails ends with an `error` event and then `response.failed`, whose
// response has status "failed" and error {code, message}: the terminal event Codex waits for
// (a Chat-style `data: {"error":…}` line is no Responses event). Both carry the stream's next
// sequence_number. https://platform.openai.com/docs/api-reference/responses-streaming/response/failed
import type { StreamErrorContext, WireErrorInput } from '../../canonical/codec.js';
import { encodeSseEvent } from '../../streaming/sse-encoder.js';
import type { JsonRecord } from '../shared/json-guards.js';
import { openAiErrorCode, openAiErrorType } from '../shared/openai-error.js';

/** The response object's `error`: gw's catalog code in snake case, else the OpenAI type of the kind (`server_error`…). */
export function responsesErrorFields(error: WireErrorInput): { code: string; message: string } {
  return { code: openAiErrorCode(error) ?? openAiErrorType(error.kind), message: error.message };
}

/**
 * The two closing events from `sequenceNumber` on. `response` is the failed response object when the
 * encoder knows it; a relay that only forwarded bytes sends the fields the spec's own example has.
 */
export function encodeResponsesFailure(error: WireErrorInput, sequenceNumber: number, response?: JsonRecord): string {
  const fields = responsesErrorFields(error);
  const failed = response ?? { object: 'response', status: 'failed', error: fields, incomplete_details: null, output: [] };
  return encodeSseEvent({ event: 'error', data: JSON.stringify({ type: 'error', code: fields.code, message: fields.message, param: error.param ?? null, sequence_number: sequenceNumber }) })
    + encodeSseEvent({ event: 'response.failed', data: JSON.stringify({ type: 'response.failed', response: failed, sequence_number: sequenceNumber + 1 }) });
}

export function encodeResponsesStreamError(error: WireErrorInput, stream: StreamErrorContext = {}): string {
  return encodeResponsesFailure(error, stream.eventsSent ?? 0);
}
