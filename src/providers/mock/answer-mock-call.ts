// The mock as an in-process upstream: a `mock:<operation>/<model>` URL and the
// encoded body in, an HTTP-like answer out, with no socket. The composition root
// hands `answerMockCall` to the upstream client (src/upstream/in-process-upstream.ts).
import { respondAsMock, type MockOperation, type MockResponse } from './respond-as-mock.js';

/** Provider operations the mock answers, as respond-as-mock.ts names them. */
export const MOCK_OPERATIONS: Readonly<Record<string, MockOperation>> = {
  'chat.completions': 'chat', completions: 'completions', embeddings: 'embeddings', 'models.list': 'models',
  messages: 'messages', 'messages.count_tokens': 'count_tokens',
  'genai.generateContent': 'generateContent', 'genai.streamGenerateContent': 'streamGenerateContent',
  'genai.countTokens': 'countTokens', 'genai.embedContent': 'embedContent', 'genai.batchEmbedContents': 'batchEmbedContents',
};

export interface MockCall {
  url: string;
  body: Buffer | string | null;
}

/** Null when the URL is not the mock's: the caller sends it over the network instead. */
export function answerMockCall(call: MockCall): MockResponse | null {
  if (!call.url.startsWith('mock:')) return null;
  const rest = call.url.slice('mock:'.length);
  const slash = rest.indexOf('/');
  const operationName = slash < 0 ? rest : rest.slice(0, slash);
  const model = slash < 0 ? 'echo' : decodeURIComponent(rest.slice(slash + 1));
  const operation = MOCK_OPERATIONS[operationName];
  if (operation === undefined) return null;
  const body = parseBody(call.body);
  const stream = typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
  // The mock reads its behaviour from the full name (mock/slow, mock/error-429).
  return respondAsMock({ operation, model: `mock/${model}`, body, stream });
}

function parseBody(body: Buffer | string | null): unknown {
  if (body === null) return {};
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return null;
  }
}
