// The built-in `mock` provider (DESIGN.md, "Providers"): answers `mock/<anything>`
// in every dialect with no network, as an HTTP-like response the pipeline
// handles exactly like an upstream's.

import { randomUUID } from 'node:crypto';
import { respondToAnthropicCountTokens, respondToAnthropicMessages, respondWithAnthropicError } from './mock-anthropic.js';
import {
  respondToGoogleBatchEmbedContents, respondToGoogleCountTokens, respondToGoogleEmbedContent, respondToGoogleGenerateContent,
  respondWithGoogleError,
} from './mock-google.js';
import {
  respondToOpenAiChat, respondToOpenAiCompletions, respondToOpenAiEmbeddings, respondToOpenAiModels, respondWithOpenAiError,
} from './mock-openai.js';
import { isRecord, readMockModel } from './mock-request.js';
import type { MockContext, MockResponse } from './mock-response.js';

export type { MockResponse } from './mock-response.js';

export type MockOperation =
  | 'chat' | 'completions' | 'embeddings' | 'models'
  | 'messages' | 'count_tokens'
  | 'generateContent' | 'streamGenerateContent' | 'countTokens' | 'embedContent' | 'batchEmbedContents';

export interface MockRequest {
  operation: MockOperation;
  model: string;
  body: unknown;
  stream: boolean;
}

export interface MockOptions {
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds since the epoch. */
  now?: () => number;
  idFactory?: () => string;
}

/** `mock/slow` streams one event every this many milliseconds. */
const MOCK_SLOW_EVENT_INTERVAL_MS = 200;

type MockDialect = 'openai' | 'anthropic' | 'google';

const OPERATIONS: Record<MockOperation, { dialect: MockDialect; respond: (context: MockContext) => MockResponse }> = {
  chat: { dialect: 'openai', respond: respondToOpenAiChat },
  completions: { dialect: 'openai', respond: respondToOpenAiCompletions },
  embeddings: { dialect: 'openai', respond: respondToOpenAiEmbeddings },
  models: { dialect: 'openai', respond: respondToOpenAiModels },
  messages: { dialect: 'anthropic', respond: respondToAnthropicMessages },
  count_tokens: { dialect: 'anthropic', respond: respondToAnthropicCountTokens },
  generateContent: { dialect: 'google', respond: respondToGoogleGenerateContent },
  streamGenerateContent: { dialect: 'google', respond: respondToGoogleGenerateContent },
  countTokens: { dialect: 'google', respond: respondToGoogleCountTokens },
  embedContent: { dialect: 'google', respond: respondToGoogleEmbedContent },
  batchEmbedContents: { dialect: 'google', respond: respondToGoogleBatchEmbedContents },
};

function sleepWithTimer(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function createDefaultId(): string {
  return randomUUID().replaceAll('-', '').slice(0, 24);
}

function respondWithError(dialect: MockDialect, status: number, message: string, createId: () => string): MockResponse {
  if (dialect === 'anthropic') return respondWithAnthropicError(status, message, `req_${createId()}`);
  if (dialect === 'google') return respondWithGoogleError(status, message);
  return respondWithOpenAiError(status, message);
}

async function* delayBody(body: AsyncIterable<Uint8Array>, sleep: (ms: number) => Promise<void>): AsyncGenerator<Uint8Array> {
  await sleep(MOCK_SLOW_EVENT_INTERVAL_MS);
  yield* body;
}

/** Answers synchronously with status and headers; a streaming body yields one SSE event per chunk. */
export function respondAsMock(request: MockRequest, options: MockOptions = {}): MockResponse {
  const entry = OPERATIONS[request.operation];
  const createId = options.idFactory ?? createDefaultId;
  const sleep = options.sleep ?? sleepWithTimer;
  const wanted = readMockModel(request.model);
  if (wanted.errorStatus !== undefined) {
    return respondWithError(entry.dialect, wanted.errorStatus, `mock error: the model ${request.model} always answers HTTP ${wanted.errorStatus}.`, createId);
  }
  const needsBody = request.operation !== 'models';
  if (needsBody && !isRecord(request.body)) {
    return respondWithError(entry.dialect, 400, 'mock error: the request body must be a JSON object.', createId);
  }
  const stream = request.stream || request.operation === 'streamGenerateContent';
  const response = entry.respond({
    model: request.model, body: request.body, stream,
    now: options.now ?? Date.now, createId,
    timing: { delayMs: wanted.slow ? MOCK_SLOW_EVENT_INTERVAL_MS : 0, sleep },
  });
  // A slow JSON answer arrives once, after one interval, as an upstream thinking would.
  return wanted.slow && !stream ? { ...response, body: delayBody(response.body, sleep) } : response;
}
