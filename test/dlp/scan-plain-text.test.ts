// Bodies that are not JSON: a text/plain or form-encoded body scanned whole, and
// an upload scanned as its bytes stream in.
import { describe, expect, it } from 'vitest';
import { resolveDlpSettings, type DlpScopeRecord } from '../../src/dlp/dlp-config.js';
import { scanPlainText } from '../../src/dlp/scan-plain-text.js';
import { createUploadScanner } from '../../src/dlp/scan-upload.js';
import { SAMPLES } from './samples.js';

const SECRET = SAMPLES.githubPat;
const rules = (records: DlpScopeRecord[] = []) => resolveDlpSettings(records, ['*']).rules;
const REDACT: DlpScopeRecord[] = [{ scope: '*', actions: { github_token: 'redact', aws_access_key: 'redact' } }];

describe('scanPlainText', () => {
  it('a form-encoded body: blocked by default, counted, the text left alone', () => {
    const scan = scanPlainText(`user=jane&token=${SECRET}&mail=${SAMPLES.email}`, rules());
    expect(scan).toEqual({ counts: { github_token: 1, email: 1 }, blockedBy: 'github_token', redactedText: null, redacted: 0 });
  });

  it('redacts into a new text, confusables folded for matching only', () => {
    const scan = scanPlainText(`Ключ: \u0410${SAMPLES.awsKeyId.slice(1)}\ntoken ${SECRET}\n`, rules(REDACT));
    expect(scan).toEqual({ counts: { aws_access_key: 1, github_token: 1 }, blockedBy: null, redactedText: 'Ключ: [REDACTED:aws_access_key]\ntoken [REDACTED:github_token]\n', redacted: 2 });
  });

  it('clean text, and no rules', () => {
    expect(scanPlainText('just words', rules())).toEqual({ counts: {}, blockedBy: null, redactedText: null, redacted: 0 });
    expect(scanPlainText(SECRET, [])).toEqual({ counts: {}, blockedBy: null, redactedText: null, redacted: 0 });
  });
});

/** `text` as UTF-8 bytes cut into chunks of `size` bytes. */
function chunksOf(text: string, size: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) chunks.push(bytes.subarray(offset, offset + size));
  return chunks;
}

describe('createUploadScanner', () => {
  it('a secret split across chunks is reported once, with running totals', () => {
    const scanner = createUploadScanner(rules(), { lookBehindChars: 64 });
    const text = `${'lorem ipsum '.repeat(40)}${SECRET}${' dolor sit'.repeat(40)}`;
    const seen = chunksOf(text, 7).map((chunk) => scanner.push(chunk));
    const ended = scanner.end();
    expect(ended).toEqual({ counts: { github_token: 1 }, blockedBy: 'github_token' });
    // Blocked while the upload was still streaming, not only at its end.
    expect(seen.findIndex((result) => result.blockedBy !== null)).toBeGreaterThan(0);
    expect(seen.findIndex((result) => result.blockedBy !== null)).toBeLessThan(seen.length - 1);
  });

  it('a multi-byte character split between two chunks is joined, not replaced', () => {
    const text = `key: \u0410${SAMPLES.awsKeyId.slice(1)} end`;
    const bytes = new TextEncoder().encode(text);
    const split = text.indexOf('\u0410') + 1; // inside the Cyrillic А's two bytes
    const scanner = createUploadScanner(rules());
    scanner.push(bytes.subarray(0, split));
    scanner.push(bytes.subarray(split));
    expect(scanner.end().counts).toEqual({ aws_access_key: 1 });
  });

  it('one-byte chunks, many matches, each counted once', () => {
    const text = `a ${SECRET} b ${SAMPLES.awsKeyId} c ${SECRET} d — é`;
    const scanner = createUploadScanner(rules(), { lookBehindChars: 128 });
    for (const chunk of chunksOf(text, 1)) scanner.push(chunk);
    expect(scanner.end()).toEqual({ counts: { github_token: 2, aws_access_key: 1 }, blockedBy: 'github_token' });
  });

  it('a redact rule only counts: nothing is left to rewrite in a streamed upload', () => {
    const scanner = createUploadScanner(rules(REDACT));
    scanner.push(new TextEncoder().encode(`x ${SECRET} y`));
    expect(scanner.end()).toEqual({ counts: { github_token: 1 }, blockedBy: null });
  });

  it('each push scans what it brought: the chunk that completes a secret reports it, before end()', () => {
    const scanner = createUploadScanner(rules());
    for (let index = 0; index < 2000; index += 1) scanner.push(new TextEncoder().encode('lorem ipsum dolor sit amet '));
    expect(scanner.push(new TextEncoder().encode(SECRET.slice(0, 30))).counts).toEqual({});
    const completed = scanner.push(new TextEncoder().encode(`${SECRET.slice(30)} `));
    expect(completed.counts).toEqual({ github_token: 1 });
    expect(completed.blockedBy).toBe('github_token');
    expect(scanner.end().counts).toEqual({ github_token: 1 });
  });
});
