// DLP over an upload as it streams (a file or a text body too large to hold):
// bytes are decoded as UTF-8 across chunks (a character split between two chunks
// is joined, not replaced), and the text goes through the stream scanner with a
// bounded look-behind, so a secret split across chunks is found and each match
// counted once. Every push scans what it brought before it returns (only an
// incomplete last character waits for the next chunk): the caller releases a chunk
// to the provider, or to the client, only once it has been scanned. Each push also
// rescans the look-behind, which network-sized chunks (16 KiB and more) barely notice.
// A redact rule only counts here: the bytes before a match may already be on
// their way to the provider, so there is nothing left to rewrite. The caller
// decides what a redact match means for an upload (e.g. refuse, or log).
import type { ActiveRule } from './find-matches.js';
import { countMatches } from './scan-plain-text.js';
import { createStreamTextScanner } from './scan-stream-text.js';

export interface UploadScanResult {
  /** rule id → matches so far (running totals, not this chunk's alone), never the matched text. */
  counts: Record<string, number>;
  /** The first block rule that matched so far, or null. */
  blockedBy: string | null;
}

export interface UploadScanner {
  push(chunk: Uint8Array): UploadScanResult;
  /** Scans what was held back, including an incomplete last character. */
  end(): UploadScanResult;
}

const DEFAULT_LOOK_BEHIND_CHARS = 4096;

export function createUploadScanner(rules: readonly ActiveRule[], options: { lookBehindChars?: number } = {}): UploadScanner {
  const lookBehind = options.lookBehindChars ?? DEFAULT_LOOK_BEHIND_CHARS;
  const decoder = new TextDecoder('utf-8');
  const scanner = createStreamTextScanner(rules, lookBehind);
  const counts: Record<string, number> = {};
  let blockedBy: string | null = null;
  const scan = (text: string) => {
    if (text.length > 0) blockedBy = countMatches(scanner.push(text), counts, blockedBy);
  };
  const result = (): UploadScanResult => ({ counts: { ...counts }, blockedBy });
  return {
    push(chunk) {
      scan(decoder.decode(chunk, { stream: true }));
      return result();
    },
    end() {
      scan(decoder.decode());
      return result();
    },
  };
}
