// Responses content parts (input_text, input_image, input_file, output_text, refusal) → canonical.
// https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
import type { TranslationWarning } from '../../canonical/codec.js';
import type { MediaSource, TextPart, UserPart } from '../../canonical/request.js';
import { invalid, optionalString, requireRecord } from '../shared/json-guards.js';

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** An image_url or file_data may be a data URL (base64 inline) or a plain URL. */
function decodeUrl(url: string): MediaSource {
  const match = DATA_URL.exec(url);
  return match ? { type: 'base64', mediaType: match[1]!, data: match[2]! } : { type: 'url', url };
}

export function decodeContentPart(value: unknown, param: string, warnings: TranslationWarning[]): UserPart | undefined {
  const part = requireRecord(value, param);
  const type = optionalString(part.type, `${param}.type`);
  if (type === 'input_text' || type === 'output_text' || type === 'text' || type === 'refusal') {
    const text = optionalString(type === 'refusal' ? part.refusal : part.text, `${param}.${type === 'refusal' ? 'refusal' : 'text'}`);
    if (text === undefined) throw invalid(`${param}.text`, 'a string');
    if (type === 'refusal') warnings.push({ code: 'mapped:refusal', detail: 'a refusal is carried as text' });
    return { type: 'text', text };
  }
  if (type === 'input_image') return decodeImage(part, param, warnings);
  if (type === 'input_file') return decodeFile(part, param);
  warnings.push({ code: `dropped:content.${type ?? 'unknown'}` });
  return undefined;
}

function decodeImage(part: Record<string, unknown>, param: string, warnings: TranslationWarning[]): UserPart {
  const detail = optionalString(part.detail, `${param}.detail`);
  if (detail !== undefined && detail !== 'auto') warnings.push({ code: 'dropped:image.detail', detail });
  const url = optionalString(part.image_url, `${param}.image_url`);
  if (url !== undefined) return { type: 'image', source: decodeUrl(url) };
  const fileId = optionalString(part.file_id, `${param}.file_id`);
  if (fileId !== undefined) return { type: 'image', source: { type: 'file', fileId } };
  throw invalid(`${param}.image_url`, 'a string (or give file_id)');
}

function decodeFile(part: Record<string, unknown>, param: string): UserPart {
  const filename = optionalString(part.filename, `${param}.filename`);
  const title = filename === undefined ? {} : { title: filename };
  const data = optionalString(part.file_data, `${param}.file_data`);
  if (data !== undefined) {
    const source = decodeUrl(data);
    // A bare base64 file_data (no data: prefix) is how some SDKs send PDFs.
    return { type: 'document', source: source.type === 'url' ? { type: 'base64', mediaType: 'application/pdf', data } : source, ...title };
  }
  const fileUrl = optionalString(part.file_url, `${param}.file_url`);
  if (fileUrl !== undefined) return { type: 'document', source: { type: 'url', url: fileUrl }, ...title };
  const fileId = optionalString(part.file_id, `${param}.file_id`);
  if (fileId !== undefined) return { type: 'document', source: { type: 'file', fileId }, ...title };
  throw invalid(`${param}.file_data`, 'a string (or give file_id or file_url)');
}

/** Message content: a string, or an array of parts. */
export function decodeMessageContent(value: unknown, param: string, warnings: TranslationWarning[]): UserPart[] {
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  if (!Array.isArray(value)) throw invalid(param, 'a string or an array of content parts');
  return value.flatMap((part, index) => decodeContentPart(part, `${param}[${index}]`, warnings) ?? []);
}

export function textOnly(parts: UserPart[], param: string): TextPart[] {
  return parts.map((part) => {
    if (part.type !== 'text') throw invalid(param, 'text only (system and developer messages carry text)');
    return part;
  });
}
