// Codex's built-in OpenAI provider first tries the Responses API over WebSocket
// (`GET /v1/responses`, `Upgrade: websocket`, `openai-beta: responses_websockets=…`)
// and falls back to HTTPS POST (../shared/research/real-clients.md). gw does not
// serve that transport, so it refuses with 426 Upgrade Required: Codex treats 426 on
// the handshake as "this server has no WebSocket transport" and switches to HTTPS at
// once, where a 404 or 5xx would be retried as a transient failure (7 attempts, ~7 s
// per session). Codex's own test servers answer 426 for exactly this case.
import { GatewayError } from '../errors.js';

export const RESPONSES_WEBSOCKET_STATUS = 426;

export function refuseResponsesWebSocket(): GatewayError {
  return new GatewayError('GW_ERR_TRANSPORT_WEBSOCKET_UNSUPPORTED', {
    message: 'The Responses API is served over HTTPS here, not WebSocket: POST /v1/responses (stream: true for events).',
  });
}
