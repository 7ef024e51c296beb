// A complete Completions stream ends with `data: [DONE]`, as Chat's does; an error event is sent without it.
import type { WireEvent } from '../../canonical/codec.js';

export function isCompletionsTerminalEvent(event: WireEvent): boolean {
  return event.data === '[DONE]';
}
