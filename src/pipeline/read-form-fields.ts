// The small text fields of a media upload (model, n, size, quality), read on the side as the
// multipart form passes to the provider. A transcription's or an image edit's model and options
// are in its form, which gw streams through unread (read-inbound-call.ts), and pricing needs
// them: whisper's answer does not name its model. The bytes forwarded are the client's own; the
// file parts are skipped, never held. By the time the provider answers, it has read the whole
// form, and so has this reader.
import { Transform, type Readable } from 'node:stream';
import busboy from 'busboy';

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
  let parser: busboy.Busboy | null = null;
  try {
    parser = busboy({ headers: { 'content-type': contentType }, limits: { fieldSize: 1024, fields: 64 } });
  } catch {
    // Not a multipart form busboy can read (no boundary): the provider will say so; nothing to price by.
  }
  parser?.on('field', (name, value) => { if (WANTED.has(name)) fields[name] = value; });
  parser?.on('file', (_name, stream) => stream.resume());
  // A malformed form is the provider's to refuse; the tap stops reading and only forwards.
  // A chunk waiting for the parser's drain is released by an error too.
  let waiting: (() => void) | null = null;
  const release = () => { const next = waiting; waiting = null; next?.(); };
  parser?.on('error', () => { parser = null; release(); });
  parser?.on('drain', release);
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!parser || parser.write(chunk)) return done(null, chunk);
      waiting = () => done(null, chunk);
    },
    flush(done) {
      parser?.end();
      done();
    },
  });
  source.on('error', (error) => tap.destroy(error));
  const result = { body: source.pipe(tap), fields };
  taps.set(source, result);
  return result;
}
