// The models an OpenAI batch input file runs, read as its upload passes through gw (POST
// /v1/files, a multipart form with a JSON Lines file: one request a line, `body.model` each;
// https://platform.openai.com/docs/guides/batch), and remembered under the file id the provider
// answers with, so creating a batch from the file can be checked against the model lists first
// (govern-call-models.ts). The bytes forwarded are the client's own; lines are parsed one at a
// time and dropped. The memory is the resource-id store (a file line, or the shared PostgreSQL
// table), under `batch-models:<file id>`, so every instance can check a file any one of them saw.
import type { Readable } from 'node:stream';
import { createFormParser, forwardThroughParser } from './tap-form.js';
import type { ResourceIdStore } from '../../state/resource-ids.js';
import { isPlainObject } from '../../is-plain-object.js';

export interface BatchFileModels {
  /** Each distinct model, with the first line (1-based) that runs it. */
  models: Array<[model: string, line: number]>;
  /** Why the file's models cannot all be known (a line that is not JSON, names no model…), or null. */
  unreadable: string | null;
}

export interface BatchFileTap {
  body: Readable;
  /** The file's models once its upload has passed whole; null when the form held no file or it was cut. */
  result(): BatchFileModels | null;
}

/** Distinct models remembered per file: a batch file runs a few; more is not a batch file gw can vouch for. */
const MAX_MODELS = 32;
/** A batch line is one request: larger than this, gw stops reading the file. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** One tap per upload stream: a second attempt gets the same tap, never a second reader on a stream already read. */
const taps = new WeakMap<Readable, BatchFileTap>();

export function tapBatchFile(source: Readable, contentType: string): BatchFileTap {
  const known = taps.get(source);
  if (known) return known;
  let found: BatchFileModels | null = null;
  let complete = false;
  // Not a form busboy can read: the provider will refuse it; the file stays unknown.
  const parser = createFormParser(contentType, { fieldSize: 64 * 1024 });
  parser?.on('file', (name, file) => {
    if (name !== 'file' || found !== null) return void file.resume();
    const reader = createLineReader();
    found = reader.models;
    // A cut form ends its file part in an error: the file then stays incomplete.
    file.on('data', (data: Buffer) => reader.push(data)).on('end', () => { reader.end(); complete = true; }).on('error', () => {});
  });
  // A file read only in part vouches for nothing: it is as if gw had not seen it.
  const result: BatchFileTap = { body: forwardThroughParser(source, parser), result: () => (complete ? found : null) };
  taps.set(source, result);
  return result;
}

function createLineReader(): { models: BatchFileModels; push(data: Buffer): void; end(): void } {
  const models: BatchFileModels = { models: [], unreadable: null };
  const seen = new Map<string, number>();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 0;
  const readLine = (bytes: Buffer) => {
    line += 1;
    if (models.unreadable !== null) return;
    const text = bytes.toString('utf8').trim();
    if (text === '') return;
    const problem = noteLine(text, line, seen);
    if (problem !== null) models.unreadable = problem;
    else if (seen.size > MAX_MODELS) models.unreadable = `it runs more than ${MAX_MODELS} models`;
  };
  return {
    models,
    push(data) {
      // Not a batch file after all (or one gw cannot vouch for): the rest passes unread.
      if (models.unreadable !== null) return;
      let start = 0;
      for (let newline = data.indexOf(0x0a); newline >= 0; newline = data.indexOf(0x0a, start)) {
        pending.push(data.subarray(start, newline));
        readLine(Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
        start = newline + 1;
      }
      if (start < data.length && models.unreadable === null) {
        // A line that does not open as a JSON object is not a batch request: stop before holding it.
        if (pendingBytes === 0 && !opensObject(data, start)) {
          models.unreadable = `line ${line + 1} is not JSON`;
          return;
        }
        pending.push(Buffer.from(data.subarray(start)));
        pendingBytes += data.length - start;
        if (pendingBytes > MAX_LINE_BYTES) models.unreadable = `line ${line + 1} is longer than ${MAX_LINE_BYTES} bytes`;
      }
    },
    end() {
      if (pending.length > 0) readLine(Buffer.concat(pending));
      pending = [];
      models.models = [...seen];
    },
  };
}

/** Whether the bytes from `start` begin (after blanks) with `{`, or are all blank so far. */
function opensObject(data: Buffer, start: number): boolean {
  for (let index = start; index < data.length; index += 1) {
    const byte = data[index]!;
    if (byte === 0x7b) return true;
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

function noteLine(text: string, line: number, seen: Map<string, number>): string | null {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return `line ${line} is not JSON`;
  }
  const body = isPlainObject(request) ? request.body : undefined;
  const model = isPlainObject(body) ? body.model : undefined;
  if (typeof model !== 'string' || model === '') return `line ${line} names no model (body.model)`;
  if (!seen.has(model)) seen.set(model, line);
  return null;
}

const KEY_PREFIX = 'batch-models:';

/** After a successful upload: the file id the provider answered with, and what its lines run. */
export async function rememberBatchFile(answer: unknown, tap: BatchFileTap, ids: ResourceIdStore): Promise<void> {
  const found = tap.result();
  const id = isPlainObject(answer) ? answer.id : undefined;
  if (found === null || typeof id !== 'string') return;
  await ids.remember(`${KEY_PREFIX}${id}`, JSON.stringify({ m: found.models, u: found.unreadable }));
}

/** What a file gw saw uploaded runs, or null when gw never saw its content. */
export async function batchFileModels(fileId: string, ids: ResourceIdStore | undefined): Promise<BatchFileModels | null> {
  if (!ids) return null;
  const key = `${KEY_PREFIX}${fileId}`;
  if (ids.load) await ids.load([key]);
  const stored = ids.providerOf(key);
  if (stored === undefined) return null;
  try {
    const parsed = JSON.parse(stored) as { m?: unknown; u?: unknown };
    if (!Array.isArray(parsed.m)) return null;
    return { models: parsed.m as Array<[string, number]>, unreadable: typeof parsed.u === 'string' ? parsed.u : null };
  } catch {
    return null;
  }
}
