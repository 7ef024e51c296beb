// gw's names → the OpenTelemetry GenAI semantic conventions' values.
// https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/

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
