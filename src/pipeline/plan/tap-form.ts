// A multipart form read on the side while its bytes pass on unchanged: each chunk goes to busboy
// and then on to the provider, waiting only while the parser asks (drain). A form busboy cannot
// read, or one that turns out malformed, stops the reading, never the forwarding: the provider
// is the one to refuse it. Used by the readers of a form's fields, its model and a batch file.
import { Transform, type Readable } from 'node:stream';
import busboy from 'busboy';

/** The form's parser, or null when busboy cannot read it (no boundary). */
export function createFormParser(contentType: string, limits: busboy.Limits): busboy.Busboy | null {
  try {
    return busboy({ headers: { 'content-type': contentType }, limits });
  } catch {
    return null;
  }
}

/** `source` forwarded byte for byte, each chunk parsed by `parser` first (null: forwarded only). */
export function forwardThroughParser(source: Readable, parser: busboy.Busboy | null): Readable {
  let reading = parser;
  // A chunk waiting for the parser's drain is released by an error too.
  let waiting: (() => void) | null = null;
  const release = () => { const next = waiting; waiting = null; next?.(); };
  reading?.on('error', () => { reading = null; release(); });
  reading?.on('drain', release);
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!reading || reading.write(chunk)) return done(null, chunk);
      waiting = () => done(null, chunk);
    },
    flush(done) { reading?.end(); done(); },
  });
  source.on('error', (error) => tap.destroy(error));
  return source.pipe(tap);
}
