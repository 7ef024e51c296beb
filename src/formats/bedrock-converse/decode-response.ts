// Provider side: a Converse response → canonical. Converse bodies carry neither an id nor
// the model (the request id is the x-amzn-requestid header, the model is in the URL), so
// both are '' here and the pipeline fills them from the call.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax
import type { Decoded } from '../../canonical/codec.js';
import type { AssistantPart } from '../../canonical/request.js';
import type { CanonicalResponse } from '../../canonical/response.js';
import { GatewayError } from '../../errors.js';
import { decodeAssistantBlock, type DecodeScope } from './decode-content.js';
import { mapBedrockStopReason } from './map-finish-reason.js';
import { mapBedrockUsage } from './map-usage.js';
import { isPlainObject } from '../shared/json-guards.js';

export function decodeBedrockResponse(body: unknown): Decoded<CanonicalResponse> {
  const message = isPlainObject(body) && isPlainObject(body.output) && isPlainObject(body.output.message) ? body.output.message : undefined;
  if (!isPlainObject(body) || message === undefined || !Array.isArray(message.content)) {
    throw new GatewayError('GW_ERR_UPSTREAM_BAD_RESPONSE', { message: 'The Converse response has no output.message.content.' });
  }
  const scope: DecodeScope = { warnings: [], toolNames: new Map() };
  const content: AssistantPart[] = [];
  message.content.forEach((block, index) => {
    const part = isPlainObject(block) ? decodeAssistantBlock(block, `output.message.content[${index}]`, scope) : undefined;
    if (part !== undefined) content.push(part);
  });
  const extension: Record<string, unknown> = {};
  for (const key of ['metrics', 'additionalModelResponseFields', 'trace', 'performanceConfig', 'serviceTier'] as const) {
    if (body[key] !== undefined) extension[key] = body[key];
  }
  return {
    value: {
      id: '',
      model: '',
      content,
      finishReason: mapBedrockStopReason(body.stopReason),
      usage: mapBedrockUsage(body.usage) ?? {},
      extensions: Object.keys(extension).length > 0 ? { bedrock: extension } : {},
    },
    warnings: scope.warnings,
  };
}
