// GenAI `Part` objects → canonical parts, shared by requests, responses and streams.
// https://ai.google.dev/api/caching#Part
import type { TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart, MediaSource, ToolResultPart, UserPart } from '../../canonical/request.js';
import {
  invalid, isPlainObject, optionalBoolean, optionalRecord, optionalString, requireRecord, type JsonRecord,
} from '../shared/json-guards.js';

/** Gives a tool call without an id (older Gemini models send none) a stable one. */
export type CallIdSource = (name: string) => string;

/** Parts with no canonical form; each is dropped with `dropped:part.<name>`. */
const UNSUPPORTED = ['executableCode', 'codeExecutionResult', 'videoMetadata', 'inlineData', 'fileData', 'functionResponse'];

function decodeMedia(part: JsonRecord, param: string): UserPart | undefined {
  let source: MediaSource | undefined;
  let mediaType: string | undefined;
  if (part.inlineData !== undefined) {
    const inline = requireRecord(part.inlineData, `${param}.inlineData`);
    mediaType = optionalString(inline.mimeType, `${param}.inlineData.mimeType`) ?? 'application/octet-stream';
    const data = optionalString(inline.data, `${param}.inlineData.data`) ?? '';
    source = { type: 'base64', mediaType, data };
  } else if (part.fileData !== undefined) {
    const file = requireRecord(part.fileData, `${param}.fileData`);
    const fileUri = optionalString(file.fileUri, `${param}.fileData.fileUri`);
    if (fileUri === undefined) throw invalid(`${param}.fileData.fileUri`, 'a string');
    mediaType = optionalString(file.mimeType, `${param}.fileData.mimeType`);
    source = mediaType === undefined ? { type: 'file', fileId: fileUri } : { type: 'file', fileId: fileUri, mediaType };
  }
  if (source === undefined) return undefined;
  return mediaType?.startsWith('image/') ? { type: 'image', source } : { type: 'document', source };
}

/** A `thoughtSignature` on a non-thought part becomes an empty reasoning part just before it, so it can ride back. */
function signaturePart(part: JsonRecord, param: string): AssistantPart[] {
  const signature = optionalString(part.thoughtSignature, `${param}.thoughtSignature`);
  return signature === undefined ? [] : [{ type: 'reasoning', text: '', signature, origin: 'google' }];
}

export function decodeModelPart(value: unknown, param: string, nextId: CallIdSource, warnings: TranslationWarning[]): AssistantPart[] {
  const part = requireRecord(value, param);
  const text = optionalString(part.text, `${param}.text`);
  if (optionalBoolean(part.thought, `${param}.thought`) === true) {
    const signature = optionalString(part.thoughtSignature, `${param}.thoughtSignature`);
    return [{ type: 'reasoning', text: text ?? '', ...(signature === undefined ? {} : { signature }), origin: 'google' }];
  }
  const parts = signaturePart(part, param);
  if (text !== undefined) {
    if (text !== '') parts.push({ type: 'text', text });
    return parts;
  }
  const call = optionalRecord(part.functionCall, `${param}.functionCall`);
  if (call !== undefined) {
    const name = optionalString(call.name, `${param}.functionCall.name`);
    if (name === undefined) throw invalid(`${param}.functionCall.name`, 'a string');
    const args = optionalRecord(call.args, `${param}.functionCall.args`) ?? {};
    const id = optionalString(call.id, `${param}.functionCall.id`) ?? nextId(name);
    parts.push({ type: 'tool-call', id, name, arguments: JSON.stringify(args) });
    return parts;
  }
  warnUnsupported(part, warnings);
  return parts;
}

function warnUnsupported(part: JsonRecord, warnings: TranslationWarning[]): void {
  const name = UNSUPPORTED.find((key) => part[key] !== undefined) ?? Object.keys(part).find((key) => key !== 'thoughtSignature') ?? 'empty';
  warnings.push({ code: `dropped:part.${name}` });
}

export type UserSidePart = { kind: 'user'; part: UserPart } | { kind: 'tool'; part: ToolResultPart };

/** A functionResponse's `response` is any object; `{output}`/`{error}` with a string is how gw encodes text. */
function decodeToolResponse(response: JsonRecord | undefined): { text: string; isError: boolean } {
  if (response === undefined) return { text: '', isError: false };
  const keys = Object.keys(response);
  if (keys.length === 1 && typeof response.output === 'string') return { text: response.output, isError: false };
  if (keys.length === 1 && typeof response.error === 'string') return { text: response.error, isError: true };
  return { text: JSON.stringify(response), isError: false };
}

export function decodeUserPart(
  value: unknown, param: string, matchCallId: (name: string) => string, warnings: TranslationWarning[],
): UserSidePart | undefined {
  const part = requireRecord(value, param);
  const text = optionalString(part.text, `${param}.text`);
  if (text !== undefined) return { kind: 'user', part: { type: 'text', text } };
  const media = decodeMedia(part, param);
  if (media !== undefined) return { kind: 'user', part: media };
  const response = optionalRecord(part.functionResponse, `${param}.functionResponse`);
  if (response !== undefined) {
    const name = optionalString(response.name, `${param}.functionResponse.name`);
    if (name === undefined) throw invalid(`${param}.functionResponse.name`, 'a string');
    const toolCallId = optionalString(response.id, `${param}.functionResponse.id`) ?? matchCallId(name);
    const { text, isError } = decodeToolResponse(optionalRecord(response.response, `${param}.functionResponse.response`));
    if (Array.isArray(response.parts) && response.parts.length > 0) warnings.push({ code: 'dropped:tool_result.parts' });
    const part: ToolResultPart = { type: 'tool-result', toolCallId, toolName: name, content: [{ type: 'text', text }] };
    if (isError) part.isError = true;
    return { kind: 'tool', part };
  }
  if (isPlainObject(part.functionCall)) throw invalid(`${param}.functionCall`, "in a content with role 'model'");
  warnUnsupported(part, warnings);
  return undefined;
}
