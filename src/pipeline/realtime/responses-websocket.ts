// The Responses API over WebSocket (Codex's first choice: `GET /v1/responses`,
// `Upgrade: websocket`). Each `response.create` event is one Responses call: the
// server layer (src/server/responses-websocket-turns.ts) runs it through the same
// corridor as `POST /v1/responses` with stream: true and sends its events back as
// WebSocket messages. What is specific to the transport lives here, pure:
// - reading a client event into a create body (`stream` is implicit, `background` refused);
// - the connection's memory of its responses: a client continues a turn with only the
//   new input and `previous_response_id`, which the provider cannot resolve when gw
//   forwards over HTTPS with store:false, or when it speaks another dialect. gw expands
//   such a turn to the full input (the remembered input and output, then the new input).
// https://developers.openai.com/api/docs/guides/websocket-mode
import { GatewayError } from '../../errors.js';

type JsonRecord = Record<string, unknown>;

export type CreateEvent = { ok: true; body: JsonRecord } | { ok: false; error: GatewayError };

/** A client event → the body of one `POST /v1/responses` (stream on), or the error to answer it with. */
export function readCreateEvent(text: string): CreateEvent {
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    return { ok: false, error: new GatewayError('GW_ERR_REQUEST_MALFORMED_JSON', { message: 'A WebSocket message must be one JSON event.' }) };
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    return { ok: false, error: new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'A WebSocket message must be a JSON object with a type.' }) };
  }
  const { type, ...body } = event as JsonRecord;
  if (type !== 'response.create') {
    return { ok: false, error: new GatewayError('GW_ERR_REQUEST_INVALID', { message: `Unsupported event type ${JSON.stringify(type)}: this gateway serves response.create over WebSocket.` }) };
  }
  if (body.background === true) {
    return { ok: false, error: new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'background is not supported over WebSocket: POST /v1/responses instead.' }) };
  }
  delete body.background;
  return { ok: true, body: { ...body, stream: true } };
}

/** A plain GET of the WebSocket route, without Upgrade: there is nothing to serve. */
export function refusePlainGet(): GatewayError {
  return new GatewayError('GW_ERR_TRANSPORT_UPGRADE_REQUIRED');
}

/** The responses a connection remembers, oldest dropped first (a chain needs only its newest). */
const REMEMBERED_RESPONSES = 4;

export class ResponsesConversation {
  readonly #responses = new Map<string, unknown[]>();

  /** The body with a remembered previous_response_id replaced by the full input it stands for. */
  expand(body: JsonRecord): JsonRecord {
    const previous = typeof body.previous_response_id === 'string' ? this.#responses.get(body.previous_response_id) : undefined;
    if (previous === undefined) return body;
    const { previous_response_id: _expanded, ...rest } = body;
    return { ...rest, input: [...previous, ...inputItems(body.input)] };
  }

  /** After `response.completed`: what the turn sent (expanded) and what the model answered. */
  remember(responseId: string, body: JsonRecord, output: unknown[]): void {
    this.#responses.delete(responseId);
    this.#responses.set(responseId, [...inputItems(body.input), ...output]);
    while (this.#responses.size > REMEMBERED_RESPONSES) this.#responses.delete(this.#responses.keys().next().value as string);
  }
}

/** `input` as items: a bare string is one user message. */
function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  return Array.isArray(input) ? input : [];
}
