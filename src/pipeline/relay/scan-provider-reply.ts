// Output DLP (`gw dlp output on`) over what a provider answers besides a success body:
// its error bodies (any status, same format or translated) and its response headers.
// An error body: a block answers gw's own 403 in the client's dialect naming the rule;
// a redact rule replaces the value and keeps the provider's status; a log rule counts.
// A header: a block drops it, a redact rewrites its value with the placeholder, and a
// match in a header's name drops the header whatever the action (a name cannot be
// redacted into something a client still understands). Every match is counted on the
// trace as `output.<rule>`, never with the matched text.
import { scanPlainText, type DlpTextScan } from '../../dlp/scan-plain-text.js';
import { scanRequestBody } from '../../dlp/scan-request.js';
import { GatewayError } from '../../errors.js';
import type { Governed } from '../govern/govern-request.js';
import type { RequestTrace } from '../request-trace.js';
import { blockedError, countOutputMatch, outputScanOn } from './scan-output.js';

type ProviderHeaders = Record<string, string | string[] | undefined>;

function countAll(counts: Record<string, number>, trace: RequestTrace): void {
  for (const [ruleId, matches] of Object.entries(counts)) for (let index = 0; index < matches; index += 1) countOutputMatch(trace, ruleId);
}

/** A provider's error body: the bytes to send (redacted when a redact rule matched), or gw's block. */
export function scanErrorBody(bytes: Buffer, answer: unknown, governed: Governed, trace: RequestTrace): Buffer {
  if (!outputScanOn(governed) || bytes.length === 0) return bytes;
  if (answer !== undefined) {
    // The scan redacts the parsed value in place.
    const scan = scanRequestBody(answer, governed.dlp.rules);
    countAll(scan.counts, trace);
    if (scan.blockedBy !== null) throw blockedError(scan.blockedBy);
    return scan.redacted > 0 ? Buffer.from(JSON.stringify(answer)) : bytes;
  }
  const scan = scanText(bytes.toString('utf8'), governed, trace);
  if (scan.blockedBy !== null) throw blockedError(scan.blockedBy);
  return scan.redactedText === null ? bytes : Buffer.from(scan.redactedText);
}

function scanText(text: string, governed: Governed, trace: RequestTrace): DlpTextScan {
  const scan = scanPlainText(text, governed.dlp.rules);
  countAll(scan.counts, trace);
  return scan;
}

/** The provider's response headers, scanned in place before any of them is relayed. */
export function scanReplyHeaders(headers: ProviderHeaders, governed: Governed, trace: RequestTrace): void {
  if (!outputScanOn(governed)) return;
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value === undefined) continue;
    const nameScan = scanText(name, governed, trace);
    if (Object.keys(nameScan.counts).length > 0) { dropHeader(headers, name, trace); continue; }
    const values = Array.isArray(value) ? value : [value];
    const kept: string[] = [];
    let dropped = false;
    for (const each of values) {
      const scan = scanText(each, governed, trace);
      if (scan.blockedBy !== null) { dropped = true; continue; }
      kept.push(scan.redactedText ?? each);
    }
    if (dropped && kept.length === 0) dropHeader(headers, name, trace);
    else headers[name] = Array.isArray(value) ? kept : kept[0];
  }
}

function dropHeader(headers: ProviderHeaders, name: string, trace: RequestTrace): void {
  delete headers[name];
  trace.noteWarning('dlp_output_header_dropped');
}

/**
 * A provider's refusal carried as a GatewayError (a translated call's error, re-encoded for the
 * client): its message is the provider's text, scanned like an error body.
 */
export function scanRelayedError(error: unknown, governed: Governed, trace: RequestTrace): unknown {
  if (!(error instanceof GatewayError) || !error.code.startsWith('GW_ERR_UPSTREAM_') || !outputScanOn(governed)) return error;
  const scan = scanText(error.message, governed, trace);
  if (scan.blockedBy !== null) return blockedError(scan.blockedBy);
  // The provider's headers it carries (retry-after) are relayed too; a string stays a string.
  const headers: Record<string, string> = { ...error.headers };
  scanReplyHeaders(headers, governed, trace);
  const unchanged = Object.keys(headers).length === Object.keys(error.headers).length
    && Object.keys(headers).every((name) => headers[name] === error.headers[name]);
  if (scan.redactedText === null && unchanged) return error;
  return new GatewayError(error.code, { status: error.status, kind: error.kind, message: scan.redactedText ?? error.message, headers, param: error.param, cause: error });
}
