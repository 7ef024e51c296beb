// The small text fields of a media upload (model, n, size, quality), read on the side as the
// multipart form passes to the provider. A transcription's or an image edit's model and options
// are in its form, which gw streams through unread (read-inbound-call.ts), and pricing needs
// them: whisper's answer does not name its model. The bytes forwarded are the client's own; the
// file parts are skipped, never held. By the time the provider answers, it has read the whole
// form, and so has this reader.
import type { Readable } from 'node:stream';
import { createFormParser, forwardThroughParser } from './tap-form.js';

const WANTED = new Set(['model', 'n', 'size', 'quality']);

export interface FormFieldsTap {
  /** The body to forward: the same bytes, passed through once parsed. */
  body: Readable;
  /** Filled in as the form passes. */
  fields: Record<string, string>;
}

/** One tap per upload stream: a second attempt gets the same tap, never a second reader on a stream already read. */
const taps = new WeakMap<Readable, FormFieldsTap>();

export function tapFormFields(source: Readable, contentType: string): FormFieldsTap {
  const known = taps.get(source);
  if (known) return known;
  const fields: Record<string, string> = {};
  // Not a form busboy can read (no boundary): the provider will say so; nothing to price by.
  const parser = createFormParser(contentType, { fieldSize: 1024, fields: 64 });
  parser?.on('field', (name, value) => { if (WANTED.has(name)) fields[name] = value; });
  parser?.on('file', (_name, stream) => stream.resume());
  const result = { body: forwardThroughParser(source, parser), fields };
  taps.set(source, result);
  return result;
}
