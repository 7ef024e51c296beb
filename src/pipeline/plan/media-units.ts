// The units a media call is priced by, counted from what passed on the wire (README: Spend):
//   - images (generations, edits, variations): the answer's `data` array length, else the
//     request's `n` (the API's default is 1); the size and quality from the answer (gpt-image-1
//     echoes them), else the request; a streamed answer's completed events stand for its `data`
//     (image-stream-tap.ts);
//   - audio heard (transcriptions, translations): whisper's `usage: {type: "duration", seconds}`,
//     else a verbose_json answer's `duration`, rounded up to the whole second; an answer with
//     neither (text, srt, vtt) leaves the duration unknown, and so the cost;
//   - speech: the characters (Unicode code points) of the request's `input`.
// Token usage the answer reports as well (gpt-image-1, gpt-4o-transcribe) is kept beside the units.
// https://platform.openai.com/docs/api-reference/images/object
// https://platform.openai.com/docs/api-reference/audio/json-object
// https://platform.openai.com/docs/api-reference/audio/verbose-json-object
// https://platform.openai.com/docs/api-reference/audio/createSpeech
import type { AuditTokens } from '../../audit/record.js';
import { toCount } from '../../canonical/usage.js';
import type { ImageVariant } from '../../spend/unit-prices.js';
import { isPlainObject as isObject } from '../../is-plain-object.js';

export type MediaUnit = 'images' | 'audio_seconds' | 'characters';

const UNIT_OF: Readonly<Record<string, MediaUnit>> = {
  'images.generations': 'images',
  'images.edits': 'images',
  'images.variations': 'images',
  'audio.transcriptions': 'audio_seconds',
  'audio.translations': 'audio_seconds',
  'audio.speech': 'characters',
};

/** The request's fields as the client sent them: a JSON body, or a multipart form read on the side (read-form-fields.ts). */
export type RequestFields = Readonly<Record<string, unknown>>;

export interface MediaUsage {
  /** Null when nothing is known: the call's cost is then unknown, never 0. */
  tokens: AuditTokens | null;
  image: ImageVariant | null;
}

/** The unit an operation is priced by; undefined for the routes priced by tokens or not at all. */
export function mediaUnitOf(operation: string): MediaUnit | undefined {
  return Object.hasOwn(UNIT_OF, operation) ? UNIT_OF[operation] : undefined;
}

/**
 * A successful media call's usage. `answer`: the parsed JSON answer, or undefined when it was
 * not JSON (audio, a text transcript, an event stream); `reported`: token usage read from it.
 */
export function countMediaUsage(unit: MediaUnit, fields: RequestFields, answer: unknown, reported: AuditTokens | null): MediaUsage {
  const object = isObject(answer) ? answer : {};
  switch (unit) {
    case 'images': {
      const images = Array.isArray(object.data) ? object.data.length : requestedImages(fields);
      return { tokens: { ...reported, ...imageInputTokens(object), images }, image: imageVariant(object, fields) };
    }
    case 'audio_seconds': {
      const seconds = audioSeconds(object);
      const tokens = { ...reported, ...transcriptionAudioTokens(object), ...(seconds !== undefined ? { audio_seconds: seconds } : {}) };
      return { tokens: Object.keys(tokens).length > 0 ? tokens : null, image: null };
    }
    case 'characters': {
      const input = fields.input;
      return { tokens: typeof input === 'string' ? { ...reported, characters: countCharacters(input) } : reported, image: null };
    }
  }
}

/** The units a JSON request asks for before it is sent, for a hard budget's hold: `n` images, the characters of `input`. */
export function expectedMediaUnits(operation: string, body: unknown): { images?: number; characters?: number } {
  const unit = mediaUnitOf(operation);
  const fields: RequestFields = isObject(body) ? body : {};
  if (unit === 'images') return { images: requestedImages(fields) };
  if (unit === 'characters' && typeof fields.input === 'string') return { characters: countCharacters(fields.input) };
  return {};
}

/** Code points, not UTF-16 units: an emoji is one character to a reader (and, we take it, to the bill). */
export function countCharacters(text: string): number {
  return [...text].length;
}

function requestedImages(fields: RequestFields): number {
  const n = typeof fields.n === 'string' && /^\d+$/.test(fields.n) ? Number(fields.n) : fields.n;
  return toCount(n) ?? 1;
}

function imageVariant(answer: Record<string, unknown>, fields: RequestFields): ImageVariant | null {
  const size = stringOf(answer.size) ?? stringOf(fields.size);
  const quality = stringOf(answer.quality) ?? stringOf(fields.quality);
  if (size === undefined && quality === undefined) return null;
  return { ...(size !== undefined ? { size } : {}), ...(quality !== undefined ? { quality } : {}) };
}

/** `usage: {type: "duration", seconds}` (json and verbose_json), else verbose_json's `duration`. */
function audioSeconds(answer: Record<string, unknown>): number | undefined {
  const usage = isObject(answer.usage) ? answer.usage : {};
  const seconds = usage.type === 'duration' ? usage.seconds : answer.duration;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}

/**
 * gpt-4o-transcribe's `usage: {type: "tokens", input_token_details: {audio_tokens}}`: the audio
 * part of its input, priced apart. (The transcription API spells it `input_token_details`,
 * unlike Chat's `prompt_tokens_details`, so the shared usage mapper does not see it.)
 */
function transcriptionAudioTokens(answer: Record<string, unknown>): AuditTokens {
  const usage = isObject(answer.usage) ? answer.usage : {};
  const details = isObject(usage.input_token_details) ? usage.input_token_details : {};
  const audio = toCount(details.audio_tokens);
  return usage.type === 'tokens' && audio !== undefined && audio > 0 ? { audio_input: audio } : {};
}

/** gpt-image-1 prices the images it is given (an edit's) above text: `usage.input_tokens_details.image_tokens`, part of input_tokens. */
function imageInputTokens(answer: Record<string, unknown>): AuditTokens {
  const usage = isObject(answer.usage) ? answer.usage : {};
  const details = isObject(usage.input_tokens_details) ? usage.input_tokens_details : {};
  const images = toCount(details.image_tokens);
  return images !== undefined && images > 0 ? { image_input: images } : {};
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= 64 ? value : undefined;
}
