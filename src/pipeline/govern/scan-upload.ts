// Stage 4, govern, for bodies gw streams through instead of holding (multipart
// uploads, large non-JSON bodies): DLP reads them as they pass. Each chunk goes on
// to the provider only once it has been scanned, with a look-behind across chunks,
// so a secret never leaves whole: a block cuts the upload there (the provider sees a
// broken request and keeps nothing) and the caller gets the 403.
//   - multipart: each part is judged by its media type and file name; text parts
//     (text/*, JSON, JSON Lines, by type or extension) are scanned, any other part is
//     unscanned: recorded in the audit record, or refused (setting unscanned_uploads);
//   - any other stream: scanned as text while it is valid UTF-8, else unscanned.
// busboy (the multipart parser fastify's own plugin uses) reads the parts on the side;
// the bytes forwarded are always the client's own.
import { Transform, type Readable } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import busboy from 'busboy';
import type { ActiveRule } from '../../dlp/find-matches.js';
import { createUploadScanner, type UploadScanResult } from '../../dlp/scan-upload.js';
import { GatewayError } from '../../errors.js';
import type { RequestTrace } from '../request-trace.js';

export interface UploadScan {
  /** The body to forward: the client's bytes, released chunk by chunk once scanned. */
  body: Readable;
  /** The refusal that cut the upload, if any: the caller's answer, whatever the provider makes of the cut. */
  refusal: () => GatewayError | null;
}

const TEXT_TYPES = /^(text\/|application\/(json|jsonl|x-ndjson|ndjson|x-jsonlines|jsonlines|xml|yaml|x-yaml|csv))/i;
const TEXT_EXTENSIONS = /\.(jsonl|ndjson|json|txt|md|csv|tsv|xml|ya?ml|log|env|ini|toml|py|js|ts|sh)$/i;

export interface UploadScanOptions {
  contentType: string;
  rules: readonly ActiveRule[];
  refuseUnscanned: boolean;
}

export function scanUpload(source: Readable, options: UploadScanOptions, trace: RequestTrace): UploadScan {
  let refusal: GatewayError | null = null;
  const unscanned: string[] = [];
  const refuse = (error: GatewayError) => { refusal ??= error; };
  const noteUnscanned = (what: string) => {
    unscanned.push(what);
    trace.noteData('unscanned', [...unscanned]);
    if (options.refuseUnscanned) refuse(new GatewayError('GW_ERR_DLP_UNSCANNED', { message: `This upload has a part DLP cannot read (${what}); setting unscanned_uploads is refuse.` }));
  };
  const reader = /^multipart\//i.test(options.contentType)
    ? readMultipart(options, trace, refuse, noteUnscanned)
    : readPlainStream(options, trace, refuse, noteUnscanned);
  const gate = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      reader.write(chunk, () => {
        // busboy hands part data on in a later tick: let it land before the chunk is released.
        setImmediate(() => (refusal ? done(refusal) : done(null, chunk)));
      });
    },
    flush(done) {
      reader.end(() => setImmediate(() => (refusal ? done(refusal) : done())));
    },
  });
  source.on('error', (error) => gate.destroy(error));
  return { body: source.pipe(gate), refusal: () => refusal };
}

interface SideReader {
  write(chunk: Buffer, done: () => void): void;
  end(done: () => void): void;
}

type Refuse = (error: GatewayError) => void;

function blockedBy(ruleId: string): GatewayError {
  return new GatewayError('GW_ERR_DLP_BLOCKED', {
    message: `Blocked by DLP rule "${ruleId}": the upload carries what looks like ${ruleId.replace(/_/g, ' ')}. The matched text is not shown; remove it or ask an admin (gw dlp).`,
  });
}

/**
 * Turns a scanner's results into a refusal at once, and its counts into the trace once: the
 * scanner reports running totals, noted when its text ends or a block cuts it.
 */
function report(trace: RequestTrace, refuse: Refuse) {
  let noted = false;
  return (result: UploadScanResult, last = false) => {
    if (result.blockedBy !== null) refuse(blockedBy(result.blockedBy));
    if (noted || (!last && result.blockedBy === null)) return;
    noted = true;
    for (const [ruleId, matches] of Object.entries(result.counts)) trace.noteDlp(ruleId, matches);
  };
}

function readMultipart(options: UploadScanOptions, trace: RequestTrace, refuse: Refuse, noteUnscanned: (what: string) => void): SideReader {
  const parser = busboy({ headers: { 'content-type': options.contentType }, limits: { fieldSize: 16 * 1024 * 1024 } });
  parser.on('field', (_name, value) => {
    const scanner = createUploadScanner(options.rules);
    const note = report(trace, refuse);
    note(scanner.push(Buffer.from(value)));
    note(scanner.end(), true);
  });
  parser.on('file', (name, stream, info) => {
    if (!TEXT_TYPES.test(info.mimeType) && !TEXT_EXTENSIONS.test(info.filename ?? '')) {
      noteUnscanned(`${name}: ${info.mimeType}`);
      stream.resume();
      return;
    }
    const scanner = createUploadScanner(options.rules);
    const note = report(trace, refuse);
    stream.on('data', (data: Buffer) => note(scanner.push(data)));
    stream.on('end', () => note(scanner.end(), true));
  });
  // A malformed form is the provider's to refuse; DLP then has nothing more to read.
  parser.on('error', () => noteUnscanned('malformed multipart body'));
  return {
    write: (chunk, done) => { if (!parser.write(chunk)) parser.once('drain', done); else done(); },
    end: (done) => { parser.end(); done(); },
  };
}

function readPlainStream(options: UploadScanOptions, trace: RequestTrace, refuse: Refuse, noteUnscanned: (what: string) => void): SideReader {
  const scanner = createUploadScanner(options.rules);
  const note = report(trace, refuse);
  let text = true;
  return {
    write: (chunk, done) => {
      // A binary stream is not text from its first invalid byte on (a chunk may end inside a character).
      if (text && !isUtf8(chunk) && !isUtf8(chunk.subarray(0, Math.max(0, chunk.length - 3)))) {
        text = false;
        noteUnscanned(`body: ${options.contentType || 'no content type'}`);
      }
      if (text) note(scanner.push(chunk));
      done();
    },
    end: (done) => { if (text) note(scanner.end(), true); done(); },
  };
}
