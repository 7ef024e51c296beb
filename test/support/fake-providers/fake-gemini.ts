// A stand-in for the Gemini API (generativelanguage.googleapis.com) speaking the
// documented wire format: https://ai.google.dev/api/generate-content,
// https://ai.google.dev/api/tokens, https://ai.google.dev/api/embeddings,
// https://ai.google.dev/api/models; errors per https://google.aip.dev/193.
// Shapes follow test/fixtures/gemini/.
import { randomUUID } from 'node:crypto';
import type { FakeDialect, FakeJsonReply, FakeReply, RecordedRequest } from './fake-provider-types.js';
import { countTokens, createEchoText, embedText, field, list, splitWords, text, type JsonRecord } from './fake-request-text.js';

const partsText = (content: unknown): string => list(content, 'parts').map((part) => text(part, 'text') ?? '').join('');

function readPrompt(body: unknown): string {
  return partsText(field(body, 'systemInstruction')) + list(body, 'contents').map(partsText).join('');
}

function createUsage(prompt: number, candidates?: number): JsonRecord {
  const usage: JsonRecord = { promptTokenCount: prompt, totalTokenCount: prompt + (candidates ?? 0) };
  if (candidates !== undefined) usage.candidatesTokenCount = candidates;
  usage.promptTokensDetails = [{ modality: 'TEXT', tokenCount: prompt }];
  return usage;
}

function createRecords(body: unknown, model: string): JsonRecord[] {
  const contents = list(body, 'contents');
  const prompt = countTokens(readPrompt(body));
  const base = { modelVersion: model, responseId: randomUUID().replaceAll('-', '').slice(0, 22) };
  const userText = partsText([...contents].reverse().find((content) => (text(content, 'role') ?? 'user') === 'user' && partsText(content) !== ''));
  const toolName = text(list(list(body, 'tools')[0], 'functionDeclarations')[0], 'name');
  const lastIsResult = list(contents.at(-1), 'parts').some((part) => field(part, 'functionResponse') !== undefined);
  const candidate = (parts: JsonRecord[], finished: boolean): JsonRecord => ({ content: { parts, role: 'model' }, ...(finished ? { finishReason: 'STOP' } : {}), index: 0 });
  if (toolName !== undefined && !lastIsResult) {
    // Function calls arrive whole, args as an object (never partial JSON), with finishReason STOP.
    const args = { text: userText };
    return [{ candidates: [candidate([{ functionCall: { name: toolName, args } }], true)], usageMetadata: createUsage(prompt, countTokens(JSON.stringify(args))), ...base }];
  }
  const reply = createEchoText(userText);
  const pieces = splitWords(reply);
  return pieces.map((piece, index) => {
    const last = index === pieces.length - 1;
    return { candidates: [candidate([{ text: piece }], last)], usageMetadata: createUsage(prompt, last ? countTokens(reply) : undefined), ...base };
  });
}

function mergeRecords(records: JsonRecord[]): JsonRecord {
  const last = records.at(-1) ?? {};
  const parts = records.flatMap((record) => list(field(list(record, 'candidates')[0], 'content'), 'parts'));
  const merged = parts.every((part) => typeof field(part, 'text') === 'string') ? [{ text: parts.map((part) => text(part, 'text')).join('') }] : parts;
  return { ...last, candidates: [{ content: { parts: merged, role: 'model' }, finishReason: 'STOP', index: 0 }] };
}

function replyToGenerate(request: RecordedRequest, model: string, stream: boolean): FakeReply {
  const records = createRecords(request.json, model);
  if (!stream) return { type: 'json', status: 200, body: mergeRecords(records) };
  if (request.query.alt === 'sse') {
    // With alt=sse each record is `data: …\r\n\r\n` and there is no [DONE].
    const frames = records.map((record) => `data: ${JSON.stringify(record)}\r\n\r\n`);
    return { type: 'stream', frames, malformedFrame: 'data: {"candidates":[{"content":\r\n\r\n', contentType: 'text/event-stream' };
  }
  // Without alt=sse the body is one JSON array written piece by piece.
  const frames = records.map((record, index) => `${index === 0 ? '' : ',\r\n'}${JSON.stringify(record)}`);
  return { type: 'stream', opening: '[', closing: ']', frames, malformedFrame: ',\r\n{"candidates":[', contentType: 'application/json; charset=UTF-8' };
}

function embed(request: unknown): JsonRecord {
  const size = field(request, 'outputDimensionality');
  return { values: embedText(partsText(field(request, 'content')), typeof size === 'number' ? size : 8) };
}

const MODELS = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-embedding-001'].map((id) => ({
  name: `models/${id}`, version: '001', displayName: id, inputTokenLimit: 1048576, outputTokenLimit: 65536,
  supportedGenerationMethods: id.includes('embedding') ? ['embedContent'] : ['generateContent', 'countTokens'],
}));

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED', 500: 'INTERNAL', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED',
};

function createGeminiError(status: number, message: string): FakeJsonReply {
  const statusName = STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
  return { type: 'json', status, body: { error: { code: status, message, status: statusName } } };
}

const MODEL_METHOD = /^\/v1(?:beta)?\/models\/(.+):(generateContent|streamGenerateContent|countTokens|embedContent|batchEmbedContents)$/;

export const fakeGemini: FakeDialect = {
  route(request: RecordedRequest): FakeReply | undefined {
    if (request.method === 'GET' && /^\/v1(beta)?\/models$/.test(request.path)) return { type: 'json', status: 200, body: { models: MODELS } };
    const match = MODEL_METHOD.exec(request.path);
    if (!match || request.method !== 'POST') return undefined;
    const model = decodeURIComponent(match[1] ?? '');
    const body = request.json;
    switch (match[2]) {
      case 'generateContent': return replyToGenerate(request, model, false);
      case 'streamGenerateContent': return replyToGenerate(request, model, true);
      case 'countTokens': {
        const total = countTokens(readPrompt(field(body, 'generateContentRequest') ?? body));
        return { type: 'json', status: 200, body: { totalTokens: total, promptTokensDetails: [{ modality: 'TEXT', tokenCount: total }] } };
      }
      case 'embedContent': return { type: 'json', status: 200, body: { embedding: embed(body) } };
      default: return { type: 'json', status: 200, body: { embeddings: list(body, 'requests').map(embed) } };
    }
  },
  createError: createGeminiError,
  authorize(request: RecordedRequest, apiKey: string): FakeJsonReply | undefined {
    const given = request.headers['x-goog-api-key'] ?? request.query.key;
    if (given === apiKey) return undefined;
    // An invalid key is a 400 INVALID_ARGUMENT with reason API_KEY_INVALID (test/fixtures/gemini/error-400.json).
    const reply = createGeminiError(400, 'API key not valid. Please pass a valid API key.');
    const error = field(reply.body, 'error') as JsonRecord;
    error.details = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } }];
    return reply;
  },
};
