// count_tokens for every provider (Anthropic /v1/messages/count_tokens, GenAI
// :countTokens, Responses /v1/responses/input_tokens) when the provider speaks
// another dialect: its own counter where it has one (Anthropic, Gemini), else an
// estimate with gpt-tokenizer's o200k_base encoding over every text the request
// carries (documented as an estimate in the README), else 501 not_supported.
import type { CanonicalRequest } from '../../canonical/request.js';
import { GatewayError } from '../../errors.js';
import { CODECS } from '../../formats/codec-registry.js';
import type { ProviderAdapter } from '../../providers/provider-adapter.js';
import type { UpstreamOperation } from '../../canonical/dialect.js';
import { adapterForModel } from '../../providers/registry.js';
import type { GatewayServices } from '../gateway-services.js';
import type { PipelineRequest, PipelineResponse } from '../pipeline-types.js';
import type { Target } from '../plan/plan-targets.js';
import type { InboundCall } from '../decode/read-inbound-call.js';
import { readJsonBody } from '../relay/read-json-reply.js';
import type { RequestTrace } from '../request-trace.js';
import type { AttemptCall } from './attempt-call.js';
import { sendToProvider } from './send-to-provider.js';

export const COUNT_OPERATIONS: ReadonlySet<UpstreamOperation> = new Set<UpstreamOperation>(['messages.count_tokens', 'genai.countTokens', 'responses.input_tokens']);

function decodeClientRequest(request: PipelineRequest, inbound: InboundCall): CanonicalRequest {
  const options = { model: inbound.model ?? '', stream: false };
  if (inbound.operation === 'messages.count_tokens') {
    // count_tokens bodies have no max_tokens; the Messages decoder may require it.
    return CODECS['anthropic-messages'].decodeRequest({ max_tokens: 1, ...(request.body as object) }, options).value;
  }
  if (inbound.operation === 'genai.countTokens') {
    const body = request.body as { generateContentRequest?: unknown };
    return CODECS['google-genai'].decodeRequest(body.generateContentRequest ?? body, options).value;
  }
  return CODECS['openai-responses'].decodeRequest(request.body, options).value;
}

function encodeCount(inbound: InboundCall, tokens: number): unknown {
  if (inbound.operation === 'messages.count_tokens') return { input_tokens: tokens };
  if (inbound.operation === 'genai.countTokens') return { totalTokens: tokens };
  return { object: 'response.input_tokens', input_tokens: tokens };
}

export async function countTokens(attempt: AttemptCall, target: Target): Promise<PipelineResponse> {
  const { request, call: inbound, services, trace } = attempt;
  const adapter = adapterForModel(target.provider, target.upstreamModel);
  const canonical = { ...decodeClientRequest(request, inbound), model: target.upstreamModel ?? inbound.model ?? '' };
  const tokens = adapter.dialect === 'anthropic' || adapter.dialect === 'google'
    ? await countUpstream(canonical, target, adapter, services, request, trace)
    : adapter.dialect === 'openai' ? await estimateTokens(canonical) : null;
  if (tokens === null) {
    throw new GatewayError('GW_ERR_OPERATION_NOT_IMPLEMENTED', { message: `Provider ${target.provider.name} cannot count tokens, and gw has no estimate for its format.` });
  }
  return { status: 200, headers: { 'content-type': 'application/json' }, body: encodeCount(inbound, tokens) };
}

async function countUpstream(canonical: CanonicalRequest, target: Target, adapter: ProviderAdapter, services: GatewayServices, request: PipelineRequest, trace: RequestTrace): Promise<number> {
  const anthropic = adapter.dialect === 'anthropic';
  const codec = anthropic ? CODECS['anthropic-messages'] : CODECS['google-genai'];
  const encoded = codec.encodeRequest(canonical).value;
  const body = anthropic ? withoutFields(encoded, ['max_tokens', 'stream', 'temperature', 'top_p', 'top_k', 'stop_sequences'])
    : { generateContentRequest: { model: `models/${canonical.model}`, ...encoded } };
  const operation: UpstreamOperation = anthropic ? 'messages.count_tokens' : 'genai.countTokens';
  const call = { operation, model: canonical.model, stream: false };
  // None of the client's headers cross: they belong to another dialect.
  const reply = await sendToProvider(target, { call, method: 'POST', clientHeaders: {}, body: Buffer.from(JSON.stringify(body)), contentType: 'application/json' }, services, request.signal, trace);
  const { bytes, answer } = await readJsonBody(reply.body, codec);
  // Not JSON: parsed again only to fail as it always has (an empty body counts as `{}`).
  const json = (answer ?? JSON.parse(bytes.toString('utf8') || '{}')) as { input_tokens?: unknown; totalTokens?: unknown };
  const count = anthropic ? json.input_tokens : json.totalTokens;
  if (reply.status >= 400 || typeof count !== 'number') {
    throw new GatewayError('GW_ERR_UPSTREAM_REJECTED', { status: reply.status >= 400 ? reply.status : 502, message: `Provider ${target.provider.name} could not count the tokens.` });
  }
  return count;
}

function withoutFields(body: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([name]) => !names.includes(name)));
}

/** Every text the model would read, tokenised with o200k_base (GPT-4o's encoding): an estimate for other models. */
async function estimateTokens(request: CanonicalRequest): Promise<number> {
  const { countTokens: count } = await import('gpt-tokenizer');
  const texts: string[] = request.system.map((part) => part.text);
  for (const message of request.messages) {
    for (const part of message.content) {
      if (part.type === 'text') texts.push(part.text);
      else if (part.type === 'tool-call') texts.push(part.name, part.arguments);
      else if (part.type === 'tool-result') texts.push(...part.content.flatMap((inner) => (inner.type === 'text' ? [inner.text] : [])));
      else if (part.type === 'reasoning') texts.push(part.text);
    }
  }
  for (const tool of request.tools ?? []) texts.push(tool.name, tool.description ?? '', JSON.stringify(tool.parameters));
  // A few tokens of framing per message, as chat formats add.
  return texts.reduce((sum, text) => sum + count(text), 0) + 3 * request.messages.length;
}
