// Client side: canonical → a Converse response, as the AWS SDK's ConverseCommand reads it.
// https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax
import type { CodecContext } from '../../canonical/codec.js';
import type { AssistantPart } from '../../canonical/request.js';
import type { CanonicalResponse } from '../../canonical/response.js';
import { toBedrockStopReason } from './map-finish-reason.js';
import { toBedrockUsage } from './map-usage.js';
import { isPlainObject } from '../../is-plain-object.js';

export function encodeBedrockResponse(response: CanonicalResponse, _context: CodecContext): Record<string, unknown> {
  const body: Record<string, unknown> = {
    output: { message: { role: 'assistant', content: response.content.map(encodeAssistantPart) } },
    stopReason: toBedrockStopReason(response.finishReason),
    usage: toBedrockUsage(response.usage),
    // metrics is required in the response shape; gw knows no Bedrock latency of its own.
    metrics: { latencyMs: 0 },
  };
  const extension = response.extensions.bedrock ?? {};
  for (const [key, value] of Object.entries(extension)) body[key] = value;
  return body;
}

export function encodeAssistantPart(part: AssistantPart): Record<string, unknown> {
  switch (part.type) {
    case 'text': return { text: part.text };
    case 'tool-call': return { toolUse: { toolUseId: part.id, name: part.name, input: parseObject(part.arguments) } };
    case 'reasoning':
      if (part.redacted !== undefined) return { reasoningContent: { redactedContent: part.redacted } };
      return { reasoningContent: { reasoningText: part.signature === undefined ? { text: part.text } : { text: part.text, signature: part.signature } } };
  }
}

function parseObject(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text === '' ? '{}' : text);
    return isPlainObject(value) ? value : {};
  } catch {
    return {};
  }
}
