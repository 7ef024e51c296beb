// A Responses stream ends with one of three events: response.completed, response.incomplete
// or response.failed. https://platform.openai.com/docs/api-reference/responses-streaming
import type { WireEvent } from '../../canonical/codec.js';

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

export function isResponsesTerminalEvent(event: WireEvent): boolean {
  return event.event !== undefined && TERMINAL.has(event.event);
}
