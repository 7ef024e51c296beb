// Small readers for the untrusted request body (typed `unknown` at the
// boundary) and the rules every mock dialect shares: reply text, token
// estimate, and what the model name asks for.
import { isPlainObject } from '../../is-plain-object.js';

export type JsonRecord = Record<string, unknown>;

export const isRecord: (value: unknown) => value is JsonRecord = isPlainObject;

export function readField(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

export function readRecord(value: unknown, key: string): JsonRecord | undefined {
  if (!isRecord(value)) return undefined;
  const field = value[key];
  return isRecord(field) ? field : undefined;
}

export function readArray(value: unknown, key: string): unknown[] {
  if (!isRecord(value)) return [];
  const field = value[key];
  return Array.isArray(field) ? field : [];
}

export function readString(value: unknown, key: string): string | undefined {
  if (!isRecord(value)) return undefined;
  const field = value[key];
  return typeof field === 'string' ? field : undefined;
}

/** Text of a content that is a string or an array of `{type:"text", text}` parts (OpenAI and Anthropic). */
export function readContentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (readString(part, 'type') === 'text' ? (readString(part, 'text') ?? '') : ''))
    .join('');
}

export function createReplyText(lastUserText: string): string {
  return `mock reply: ${lastUserText}`;
}

/** "≈ characters / 4", the rule of thumb OpenAI gives (https://platform.openai.com/tokenizer). */
export function estimateTokenCount(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Words with their trailing spaces, so a stream carries several deltas that join back to the text. */
export function splitIntoPieces(text: string): string[] {
  const pieces = text.match(/\s*\S+\s*/g);
  return pieces ?? [text];
}

export interface MockModelRequest {
  /** Set for `…error-<status>` with a status from 400 to 599. */
  errorStatus?: number;
  /** `…slow`: one stream event every 200 ms. */
  slow: boolean;
}

/** Reads `mock/error-429`, `mock/slow` (with or without the `mock/` prefix). */
export function readMockModel(model: string): MockModelRequest {
  const name = model.slice(model.lastIndexOf('/') + 1);
  const error = /^error-(\d{3})$/.exec(name);
  const status = error ? Number(error[1]) : undefined;
  const request: MockModelRequest = { slow: name === 'slow' };
  if (status !== undefined && status >= 400 && status <= 599) request.errorStatus = status;
  return request;
}

export const MOCK_MODEL_IDS = ['mock/echo', 'mock/slow', 'mock/error-429', 'mock/error-500'];
