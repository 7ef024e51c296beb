// gw's names → the OpenTelemetry GenAI semantic conventions' attributes and values.
// https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/ (the registry:
// test/telemetry/genai-attributes.test.ts holds every name gw sets against it).
import type { Attributes } from '@opentelemetry/api';
import type { CallTokens } from './call-tracer.js';
import type { GuardrailDecision } from './guardrail-decisions.js';

/** gen_ai.operation.name for a gw operation; other operations keep gw's own name. */
export function genAiOperation(operation: string): string {
  if (operation === 'chat.completions' || operation === 'messages' || operation === 'responses.create') return 'chat';
  if (operation === 'completions') return 'text_completion';
  if (operation === 'embeddings' || operation.endsWith('embedContent')) return 'embeddings';
  if (operation.startsWith('genai.')) return 'generate_content';
  return operation;
}

const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  openai: 'openai', anthropic: 'anthropic', gemini: 'gcp.gemini', bedrock: 'aws.bedrock', azure: 'azure.ai.openai',
  mistral: 'mistral_ai', cohere: 'cohere', 'openai-compatible': 'openai', gateway: 'gw',
};

/** gen_ai.provider.name for a provider kind. */
export function genAiProvider(kind: string): string {
  return PROVIDER_NAMES[kind] ?? kind;
}

/** Token usage: input counts cached tokens (as gw's does), cache creation is every cache write, reasoning is inside output. */
export function tokenAttributes(tokens: CallTokens | null): Attributes {
  const attributes: Attributes = {};
  if (!tokens) return attributes;
  if (tokens.input !== undefined) attributes['gen_ai.usage.input_tokens'] = tokens.input;
  if (tokens.output !== undefined) attributes['gen_ai.usage.output_tokens'] = tokens.output;
  if (tokens.cached_read !== undefined) attributes['gen_ai.usage.cache_read.input_tokens'] = tokens.cached_read;
  if (tokens.cache_write !== undefined) attributes['gen_ai.usage.cache_creation.input_tokens'] = tokens.cache_write;
  if (tokens.reasoning !== undefined) attributes['gen_ai.usage.reasoning.output_tokens'] = tokens.reasoning;
  return attributes;
}

/**
 * An `apply_guardrail` span's attributes (the GenAI SIG's guardrail conventions, v0.1.0): the
 * guardian, what it looked at and its decision; the reason is the low-cardinality catalog code
 * or "matched", never content.
 */
export function guardrailAttributes(decision: GuardrailDecision): Attributes {
  const attributes: Attributes = {
    'gen_ai.operation.name': 'apply_guardrail', 'gen_ai.guardian.name': decision.guardian, 'gen_ai.guardian.provider.name': 'gw',
    'gen_ai.security.target.type': decision.target, 'gen_ai.security.decision.type': decision.decision,
    'gen_ai.security.decision.reason': decision.code === undefined ? 'rule matched' : 'refused',
  };
  if (decision.code !== undefined) attributes['gen_ai.security.decision.code'] = decision.code;
  if (decision.rules.length > 0) attributes['gen_ai.security.policy.name'] = decision.rules.join(',');
  return attributes;
}
