// DLP over what a realtime client sends its provider: every text frame is a JSON
// event (`conversation.item.create` with input_text, `session.update` and
// `response.create` instructions, tool outputs…) and is scanned whole with the team's
// rules, as an HTTP body is (scanRequestBody walks every string, so no event type or
// field can slip past). Base64 audio (`audio` in `input_audio_buffer.append` and in
// input_audio parts) is not text: it is skipped and counted, as binary frames are.
// A block drops the one event and answers it with a realtime `error` event naming
// the client's event_id; the session stays open, as OpenAI's own server does for an
// invalid event (https://platform.openai.com/docs/api-reference/realtime-server-events/error).
import { countRawKeys } from '../../dlp/count-json-keys.js';
import type { DlpSettings } from '../../dlp/dlp-config.js';
import { scanRequestBody } from '../../dlp/scan-request.js';
import { GatewayError, toSnakeCode } from '../../errors.js';
import { isPlainObject } from '../../is-plain-object.js';

/** What DLP saw in one session, for its `realtime.close` record (never the matched text). */
export interface RealtimeDlpTally {
  /** rule id → matches; output matches are prefixed `output.` as in HTTP records. */
  counts: Record<string, number>;
  blockedEvents: number;
  redactedEvents: number;
  /** Base64 audio strings inside JSON events, and binary frames, passed without a scan. */
  unscanned: number;
}

export type ClientEventVerdict =
  /** `data` null: forward the client's own bytes; else the scanned event, re-serialised. */
  | { action: 'forward'; data: string | null }
  | { action: 'refuse'; ruleId: string; reply: string };

/** Shorter strings under `audio` are not worth skipping (and could hide a short secret). */
const MIN_AUDIO_LENGTH = 64;
const MAX_DEPTH = 64;

export function newRealtimeDlpTally(): RealtimeDlpTally {
  return { counts: {}, blockedEvents: 0, redactedEvents: 0, unscanned: 0 };
}

export function scanClientEvent(text: string, dlp: DlpSettings, tally: RealtimeDlpTally, eventId: () => string): ClientEventVerdict {
  if (dlp.rules.length === 0) return { action: 'forward', data: null };
  const parsed = parseEvent(text);
  // Not JSON: the provider will refuse it, but its text is scanned all the same.
  const root: unknown = parsed ?? [text];
  const audio = setAudioAside(root, 0);
  tally.unscanned += audio.length;
  const scan = scanRequestBody(root, dlp.rules, dlp.cache);
  for (const hidden of audio) hidden.container[hidden.key] = hidden.value;
  for (const [ruleId, matches] of Object.entries(scan.counts)) tally.counts[ruleId] = (tally.counts[ruleId] ?? 0) + matches;
  if (scan.blockedBy !== null) {
    tally.blockedEvents += 1;
    return { action: 'refuse', ruleId: scan.blockedBy, reply: blockedReply(scan.blockedBy, clientEventId(parsed), eventId(), 'sent') };
  }
  if (scan.redacted > 0) tally.redactedEvents += 1;
  // After a redaction, or when a key repeats in the bytes (a provider might read the copy the parser dropped),
  // what leaves is the scanned object serialised, as for an HTTP body.
  const duplicateKeys = parsed !== null && countRawKeys(Buffer.from(text)) !== scan.objectKeys;
  if (scan.redacted === 0 && !duplicateKeys) return { action: 'forward', data: null };
  return { action: 'forward', data: parsed === null ? String((root as string[])[0]) : JSON.stringify(root) };
}

function parseEvent(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}

function clientEventId(event: Record<string, unknown> | null): string | null {
  return typeof event?.event_id === 'string' ? event.event_id : null;
}

interface HiddenAudio {
  container: Record<string, unknown>;
  key: string;
  value: string;
}

/** Blanks every long `audio` string (put back after the scan), so base64 is neither scanned nor mistaken for a secret. */
function setAudioAside(node: unknown, depth: number): HiddenAudio[] {
  if (typeof node !== 'object' || node === null || depth > MAX_DEPTH) return [];
  const hidden: HiddenAudio[] = [];
  const container = node as Record<string, unknown>;
  for (const key of Object.keys(container)) {
    const value = container[key];
    if (key === 'audio' && typeof value === 'string' && value.length >= MIN_AUDIO_LENGTH) {
      hidden.push({ container, key, value });
      container[key] = '';
    } else {
      hidden.push(...setAudioAside(value, depth + 1));
    }
  }
  return hidden;
}

/**
 * A realtime server `error` event; `error.event_id` names the client event it answers.
 * `sent`: a client event was held back; `received`: the provider's output was stopped.
 */
export function blockedReply(ruleId: string, clientEvent: string | null, eventId: string, side: 'sent' | 'received'): string {
  const message = side === 'sent'
    ? `Blocked by DLP rule "${ruleId}": the event carries what looks like ${ruleId.replace(/_/g, ' ')}. The matched text is not shown; the event was not sent to the provider (gw dlp).`
    : `The response was stopped by DLP rule "${ruleId}"; the matched text is not shown, and the session is closed.`;
  const error = new GatewayError('GW_ERR_DLP_BLOCKED', { message });
  return JSON.stringify({
    type: 'error', event_id: eventId,
    error: { type: 'invalid_request_error', code: toSnakeCode(error.code), message: error.message, param: null, event_id: clientEvent },
  });
}
