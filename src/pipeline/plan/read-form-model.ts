// The `model` field of a multipart form gw streams through (a transcription, an image edit),
// read before anything is forwarded when a model list must judge it: the form's first bytes are
// read until its `model` field has passed or it ends; then the body handed on replays those
// bytes and continues with the rest, so the provider gets the client's bytes unchanged. A form
// that puts its model first (Python's SDK) is held for a few bytes; one that puts its file first
// (openai-node builds the form in the order of its params, `{ file, model }`) is held up to the
// limit gw reads a non-form body whole to, past which its model cannot be read before
// forwarding. Without a list, tapFormModel only notes the model as the form passes.
import { Readable } from 'node:stream';
import { createFormParser, forwardThroughParser } from './tap-form.js';

/** At most this much of a form is held while looking for its model: what gw reads whole of any other body. */
export const FORM_PREFIX_BYTES = 8 * 1024 * 1024;

export interface FormModel {
  model: string | null;
  /** Why the model cannot be read (a file before it, a malformed form), or null. */
  unreadable: string | null;
  /** The body to forward: the bytes read so far, then the rest of the source. */
  body: Readable;
}

interface Prefix { chunks: Buffer[]; ended: boolean; model: string | null; unreadable: string | null }

export async function readFormModel(source: Readable, contentType: string): Promise<FormModel> {
  const prefix = await readPrefix(source, contentType);
  return { model: prefix.model, unreadable: prefix.unreadable, body: replay(prefix, source) };
}

function readPrefix(source: Readable, contentType: string): Promise<Prefix> {
  return new Promise((resolve) => {
    const prefix: Prefix = { chunks: [], ended: false, model: null, unreadable: null };
    let size = 0;
    let settled = false;
    const parser = createFormParser(contentType, { fieldSize: 64 * 1024 });
    const finish = (model: string | null, unreadable: string | null) => {
      if (settled) return;
      settled = true;
      source.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      source.pause();
      resolve({ ...prefix, model, unreadable });
    };
    const onData = (chunk: Buffer) => {
      prefix.chunks.push(chunk);
      size += chunk.length;
      parser?.write(chunk);
      if (size > FORM_PREFIX_BYTES) finish(null, `the form has no model field in its first ${FORM_PREFIX_BYTES / 1024 / 1024} MiB (send model before the file)`);
    };
    const onEnd = () => { prefix.ended = true; parser?.end(); };
    const onError = () => finish(null, 'the upload failed while its model was read');
    // A client that goes away may only close the stream: nothing is left to wait for.
    const onClose = () => { if (!prefix.ended) finish(null, 'the upload was cut while its model was read'); };
    if (parser === null) return finish(null, 'the multipart form has no boundary');
    parser.on('field', (name, value) => { if (name === 'model') finish(value, value === '' ? 'the form\'s model field is empty' : null); });
    parser.on('file', (_name, file) => { file.on('error', () => {}).resume(); });
    parser.on('error', () => finish(null, 'the multipart form is malformed'));
    // The whole form has passed without a model field: it names none.
    parser.on('close', () => finish(null, null));
    source.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

function replay(prefix: Prefix, source: Readable): Readable {
  async function* bytes(): AsyncGenerator<Buffer> {
    yield* prefix.chunks;
    if (!prefix.ended) yield* source as AsyncIterable<Buffer>;
  }
  return Readable.from(bytes(), { objectMode: false });
}

/** Notes the form's `model` field as it passes, forwarding every byte as it comes: for the record only. */
export function tapFormModel(source: Readable, contentType: string, onModel: (model: string) => void): Readable {
  const parser = createFormParser(contentType, { fieldSize: 64 * 1024 });
  if (parser === null) return source;
  parser.on('field', (name, value) => { if (name === 'model' && value !== '') onModel(value); });
  parser.on('file', (_name, file) => { file.on('error', () => {}).resume(); });
  return forwardThroughParser(source, parser);
}
