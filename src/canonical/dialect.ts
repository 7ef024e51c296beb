// The shared vocabulary of the gateway: the wire dialects gw speaks on either side
// and the operations as each provider's API names them. Types only; imports nothing.

/**
 * The wire formats gw speaks on either side: one word for one idea, everywhere in the code
 * (`route.dialect`, `call.dialect`, `codecForDialect`). A route's dialect may also be
 * `operational` (/health, /metrics); a codec (`openai-chat`, `openai-responses`…) is one
 * dialect's encoding of one kind of call. Audit records and metric labels keep their field's
 * published name, `family`.
 */
export type WireDialect = 'openai' | 'anthropic' | 'google' | 'bedrock';

/** The dialect a route's errors and credentials follow; `operational` routes speak none. */
export type RouteDialect = WireDialect | 'operational';

/** Operations as the provider's own API names them. */
export type UpstreamOperation =
  | 'chat.completions' | 'completions' | 'embeddings' | 'models.list'
  | 'messages' | 'messages.count_tokens' | 'models.list.anthropic'
  | 'genai.generateContent' | 'genai.streamGenerateContent' | 'genai.countTokens' | 'genai.embedContent'
  | 'genai.batchEmbedContents' | 'genai.models.list'
  | 'responses.create' | 'responses.input_tokens'
  | 'bedrock.converse' | 'bedrock.converse_stream'
  | ResourceOperation
  | 'passthrough';

/**
 * Operations on provider-side resources and the non-chat routes (src/pipeline/routes/resource-routes.ts):
 * the provider path is the client's path under the API root (`call.resourcePath`).
 */
export type ResourceOperation =
  | 'responses.retrieve' | 'responses.delete' | 'responses.cancel' | 'responses.input_items'
  | 'responses.input_tokens' | 'responses.compact'
  | 'files' | 'files.item' | 'files.content' | 'batches' | 'batches.item' | 'batches.results' | 'batches.cancel'
  | 'containers' | 'containers.item' | 'videos' | 'videos.item' | 'videos.content' | 'videos.remix'
  | 'images.generations' | 'images.edits' | 'images.variations' | 'audio.speech' | 'audio.transcriptions' | 'audio.translations'
  | 'rerank' | 'ocr' | 'realtime'
  | 'messages.batches' | 'messages.batches.item' | 'messages.batches.results' | 'messages.batches.cancel';
