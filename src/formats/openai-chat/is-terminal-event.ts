// A complete Chat Completions stream ends with `data: [DONE]`; an error event is sent without it.
import type { WireEvent } from '../../canonical/codec.js';

export function isOpenAiChatTerminalEvent(event: WireEvent): boolean {
  return event.data === '[DONE]';
}
