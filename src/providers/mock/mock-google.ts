// Google GenAI (Gemini API) generateContent, streamGenerateContent, countTokens,
// embedContent and batchEmbedContents, as documented at
// https://ai.google.dev/api/generate-content, https://ai.google.dev/api/tokens and
// https://ai.google.dev/api/embeddings; errors per https://ai.google.dev/gemini-api/docs/troubleshooting.

import { createMockEmbedding, DEFAULT_MOCK_DIMENSIONS } from './mock-embedding.js';
import {
  createReplyText, estimateTokenCount, readArray, readField, readRecord, readString, splitIntoPieces, type JsonRecord,
} from './mock-request.js';
import { respondWithJson, respondWithSse, toSseEvent, type MockContext, type MockResponse } from './mock-response.js';

interface ContentPlan {
  text?: string;
  toolName?: string;
  promptTokens: number;
  candidatesTokens: number;
}

function readPartsText(content: unknown): string {
  return readArray(content, 'parts').map((part) => readString(part, 'text') ?? '').join('');
}

function readPromptText(body: unknown): string {
  return readPartsText(readRecord(body, 'systemInstruction')) + readArray(body, 'contents').map(readPartsText).join('');
}

function planContent(body: unknown): ContentPlan {
  const contents = readArray(body, 'contents');
  const promptTokens = estimateTokenCount(readPromptText(body));
  const lastIsToolResult = readArray(contents.at(-1), 'parts').some((part) => readField(part, 'functionResponse') !== undefined);
  const toolName = readArray(body, 'tools')
    .flatMap((tool) => readArray(tool, 'functionDeclarations'))
    .map((declaration) => readString(declaration, 'name'))
    .find((name) => name !== undefined);
  if (toolName !== undefined && !lastIsToolResult) {
    return { toolName, promptTokens, candidatesTokens: estimateTokenCount(`${toolName}{}`) };
  }
  // A content without a role is a user turn (https://ai.google.dev/api/caching#Content).
  const lastUser = [...contents].reverse().find((content) => (readString(content, 'role') ?? 'user') === 'user' && readPartsText(content) !== '');
  const text = createReplyText(readPartsText(lastUser));
  return { text, promptTokens, candidatesTokens: estimateTokenCount(text) };
}

function createUsageMetadata(promptTokens: number, candidatesTokens?: number): JsonRecord {
  const usage: JsonRecord = { promptTokenCount: promptTokens, totalTokenCount: promptTokens + (candidatesTokens ?? 0) };
  if (candidatesTokens !== undefined) usage.candidatesTokenCount = candidatesTokens;
  usage.promptTokensDetails = [{ modality: 'TEXT', tokenCount: promptTokens }];
  return usage;
}

function createCandidate(parts: JsonRecord[], finished: boolean): JsonRecord {
  // Gemini ends a function call turn with finishReason STOP too; the functionCall part tells them apart.
  const candidate: JsonRecord = { content: { parts, role: 'model' }, index: 0 };
  if (finished) candidate.finishReason = 'STOP';
  return candidate;
}

export function respondToGoogleGenerateContent(context: MockContext): MockResponse {
  const plan = planContent(context.body);
  const responseId = context.createId();
  const base = { modelVersion: context.model, responseId };
  if (plan.toolName !== undefined || !context.stream) {
    const parts = plan.toolName === undefined ? [{ text: plan.text ?? '' }] : [{ functionCall: { name: plan.toolName, args: {} } }];
    const payload = { candidates: [createCandidate(parts, true)], usageMetadata: createUsageMetadata(plan.promptTokens, plan.candidatesTokens), ...base };
    // A function call streams as one record: its args are a whole object, never partial JSON.
    return context.stream ? respondWithGoogleSse([payload], context) : respondWithJson(200, payload);
  }
  const pieces = splitIntoPieces(plan.text ?? '');
  const payloads = pieces.map((text, index) => {
    const last = index === pieces.length - 1;
    return {
      candidates: [createCandidate([{ text }], last)],
      usageMetadata: createUsageMetadata(plan.promptTokens, last ? plan.candidatesTokens : undefined),
      ...base,
    };
  });
  return respondWithGoogleSse(payloads, context);
}

function respondWithGoogleSse(payloads: JsonRecord[], context: MockContext): MockResponse {
  // With alt=sse Gemini frames records as `data: …\r\n\r\n` and sends no [DONE].
  return respondWithSse(payloads.map((payload) => toSseEvent(payload)), context.timing, { lineEnding: '\r\n' });
}

/** https://ai.google.dev/api/tokens#method:-models.counttokens */
export function respondToGoogleCountTokens(context: MockContext): MockResponse {
  const generateRequest = readRecord(context.body, 'generateContentRequest');
  const totalTokens = estimateTokenCount(readPromptText(generateRequest ?? context.body));
  return respondWithJson(200, { totalTokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: totalTokens }] });
}

function embedRequest(request: unknown): JsonRecord {
  const dimensions = readField(request, 'outputDimensionality');
  const size = typeof dimensions === 'number' ? dimensions : DEFAULT_MOCK_DIMENSIONS;
  return { values: createMockEmbedding(readPartsText(readRecord(request, 'content')), size) };
}

/** https://ai.google.dev/api/embeddings#method:-models.embedcontent */
export function respondToGoogleEmbedContent(context: MockContext): MockResponse {
  return respondWithJson(200, { embedding: embedRequest(context.body) });
}

/** https://ai.google.dev/api/embeddings#method:-models.batchembedcontents */
export function respondToGoogleBatchEmbedContents(context: MockContext): MockResponse {
  return respondWithJson(200, { embeddings: readArray(context.body, 'requests').map(embedRequest) });
}

const GOOGLE_STATUSES: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED', 499: 'CANCELLED', 500: 'INTERNAL', 501: 'UNIMPLEMENTED', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED',
};

/** `{"error":{code,message,status}}` (https://google.aip.dev/193). */
export function respondWithGoogleError(status: number, message: string): MockResponse {
  const statusName = GOOGLE_STATUSES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
  const headers: Record<string, string> = status === 429 ? { 'retry-after': '1' } : {};
  return respondWithJson(status, { error: { code: status, message, status: statusName } }, headers);
}
