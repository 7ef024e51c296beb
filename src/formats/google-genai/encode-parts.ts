// Canonical parts → GenAI `Part` objects. A signature-only reasoning part (how the decoder
// carries a `thoughtSignature` that sat on a text or functionCall part) is put back on the
// part that follows it. https://ai.google.dev/gemini-api/docs/thought-signatures
import type { TranslationWarning } from '../../canonical/codec.js';
import type { AssistantPart, MediaSource, ToolResultPart, UserPart } from '../../canonical/request.js';
import { parseJsonObject, type JsonRecord } from '../shared/json-guards.js';

export function encodeModelParts(parts: AssistantPart[], warnings: TranslationWarning[]): JsonRecord[] {
  const output: JsonRecord[] = [];
  let pendingSignature: string | undefined;
  const push = (part: JsonRecord): void => {
    if (pendingSignature !== undefined) part.thoughtSignature = pendingSignature;
    pendingSignature = undefined;
    output.push(part);
  };
  for (const part of parts) {
    if (part.type === 'text') push({ text: part.text });
    else if (part.type === 'tool-call') push({ functionCall: encodeFunctionCall(part.id, part.name, part.arguments, warnings) });
    else {
      const signature = readGoogleSignature(part, warnings);
      if (part.text === '' && signature !== undefined) {
        if (pendingSignature !== undefined) push({ text: '' });
        pendingSignature = signature;
      } else if (part.text !== '') {
        output.push({ text: part.text, thought: true, ...(signature === undefined ? {} : { thoughtSignature: signature }) });
      }
    }
  }
  if (pendingSignature !== undefined) push({ text: '' });
  return output;
}

/** Only Gemini's own signatures are valid on Gemini; another provider's opaque reasoning is dropped. */
function readGoogleSignature(part: Extract<AssistantPart, { type: 'reasoning' }>, warnings: TranslationWarning[]): string | undefined {
  const foreign = part.origin !== undefined && part.origin !== 'google';
  if (part.encrypted !== undefined) warnings.push({ code: 'dropped:reasoning.encrypted' });
  if (part.redacted !== undefined) warnings.push({ code: 'dropped:reasoning.redacted' });
  if (part.signature !== undefined && foreign) warnings.push({ code: 'dropped:reasoning.signature' });
  return foreign ? undefined : part.signature;
}

function encodeFunctionCall(id: string, name: string, argumentsText: string, warnings: TranslationWarning[]): JsonRecord {
  let args = parseJsonObject(argumentsText === '' ? '{}' : argumentsText);
  if (args === undefined) {
    // Gemini's args must be an object; broken JSON from another model cannot be sent as is.
    warnings.push({ code: 'mapped:tool_call.arguments', detail: 'arguments were not a JSON object' });
    args = {};
  }
  return { id, name, args };
}

export function encodeUserParts(parts: UserPart[], warnings: TranslationWarning[]): JsonRecord[] {
  return parts.map((part) => {
    if (part.cacheControl !== undefined) warnings.push({ code: 'dropped:cache_control' });
    if (part.type === 'text') return { text: part.text };
    if (part.type === 'document' && part.title !== undefined) warnings.push({ code: 'dropped:document.title' });
    return encodeMedia(part.source, part.type === 'image' ? 'image/jpeg' : 'application/pdf', warnings);
  });
}

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

function encodeMedia(source: MediaSource, defaultType: string, warnings: TranslationWarning[]): JsonRecord {
  if (source.type === 'base64') return { inlineData: { mimeType: source.mediaType, data: source.data } };
  if (source.type === 'file') return { fileData: { mimeType: source.mediaType ?? defaultType, fileUri: source.fileId } };
  const dataUrl = DATA_URL.exec(source.url);
  if (dataUrl) return { inlineData: { mimeType: dataUrl[1], data: dataUrl[2] } };
  // Gemini fetches public URLs given as fileData; it needs a MIME type the URL does not carry.
  warnings.push({ code: 'mapped:media.url', detail: `sent as fileData with mimeType ${defaultType}` });
  return { fileData: { mimeType: guessMimeType(source.url) ?? defaultType, fileUri: source.url } };
}

const EXTENSIONS: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif', heic: 'image/heic', pdf: 'application/pdf',
};

function guessMimeType(url: string): string | undefined {
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : EXTENSIONS[extension];
}

/** Tool results go back as functionResponse parts; `{output}` or `{error}` carries text. */
export function encodeToolResults(parts: ToolResultPart[], callNames: Map<string, string>, warnings: TranslationWarning[]): JsonRecord[] {
  return parts.map((part) => {
    if (part.cacheControl !== undefined) warnings.push({ code: 'dropped:cache_control' });
    if (part.content.some((item) => item.type === 'image')) warnings.push({ code: 'dropped:tool_result.image' });
    const text = part.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
    let name = part.toolName ?? callNames.get(part.toolCallId);
    if (name === undefined) {
      // Gemini matches a result to its call by name; without one the id is the best stand-in.
      warnings.push({ code: 'mapped:tool_result.name', detail: part.toolCallId });
      name = part.toolCallId;
    }
    const response = part.isError === true ? { error: text } : { output: text };
    return { functionResponse: { id: part.toolCallId, name, response } };
  });
}
