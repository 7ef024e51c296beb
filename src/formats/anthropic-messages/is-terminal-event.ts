// A complete Messages stream ends with `message_stop`; an `error` event ends it without one.
// https://docs.anthropic.com/en/api/messages-streaming#event-types
import type { WireEvent } from '../../canonical/codec.js';

export function isAnthropicTerminalEvent(event: WireEvent): boolean {
  return event.event === 'message_stop';
}
