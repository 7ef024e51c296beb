// One call's attempt (stage 6): what every try of every target shares, built once in
// handle-request.ts and handed through the stage whole instead of as long parameter lists.
import type { InboundCall } from '../decode/read-inbound-call.js';
import type { GatewayServices } from '../gateway-services.js';
import type { Governed } from '../govern/govern-request.js';
import type { PipelineRequest } from '../pipeline-types.js';
import type { RequestTrace } from '../request-trace.js';

export interface AttemptCall {
  /** The client's request; each try works on a copy that carries the try's own cancel signal. */
  request: PipelineRequest;
  call: InboundCall;
  services: GatewayServices;
  trace: RequestTrace;
  /** The call's policies and DLP settings: the cache marker, and the translated relay's output hold. */
  governed: Governed;
}
