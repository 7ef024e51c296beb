// ConverseStream's last event is `metadata` (usage and metrics), after messageStop; an
// exception frame ends a stream that did not complete.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStreamOutput.html
import type { WireEvent } from '../../canonical/codec.js';

export function isBedrockTerminalEvent(event: WireEvent): boolean {
  return event.event === 'metadata' || (event.event === undefined && event.data.startsWith('{"metadata"'));
}
