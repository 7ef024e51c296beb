// Media a request sends by reference (a URL, a file id, a cloud URI) rather than inline: the
// provider fetches and bills it as input, but its bytes are not in the body, so four bytes a token
// counts only the reference's text. A budget's worst case adds each at a per-item allowance
// (estimate-worst-case.ts). Inline base64 is already in the body's byte count. Pure.
//   - OpenAI Chat: `image_url` parts whose url is not a data: URL; `file` parts with a file_id;
//   - OpenAI Responses: `input_image` with an image_url or file_id; `input_file` with a file_id or file_url;
//   - Anthropic Messages: `image` / `document` blocks whose source is a `url` or a `file`;
//   - Google GenAI: `fileData` parts (images by mime type, anything else a file);
//   - Bedrock Converse: `image` / `document` / `video` blocks whose source is an `s3Location`.
import { isPlainObject } from '../is-plain-object.js';

export interface LinkedMedia {
  images: number;
  /** Documents, audio, video: anything not an image. */
  files: number;
}

/** Objects deeper than this are not walked (no request nests content this deep; a hostile one is bounded). */
const MAX_DEPTH = 12;

export function countLinkedMedia(body: unknown): LinkedMedia {
  const found: LinkedMedia = { images: 0, files: 0 };
  walk(body, 0, found);
  return found;
}

function walk(value: unknown, depth: number, found: LinkedMedia): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) walk(item, depth + 1, found);
    return;
  }
  if (!isPlainObject(value)) return;
  const kind = linkedKind(value);
  if (kind !== null) {
    found[kind] += 1;
    return;
  }
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (typeof child === 'object' && child !== null) walk(child, depth + 1, found);
  }
}

/** Whether this content part names media the provider fetches itself, and which kind. */
function linkedKind(part: Record<string, unknown>): keyof LinkedMedia | null {
  switch (part.type) {
    case 'image_url': return isLink(isPlainObject(part.image_url) ? part.image_url.url : part.image_url) ? 'images' : null;
    case 'file': return isPlainObject(part.file) && typeof part.file.file_id === 'string' ? 'files' : null;
    case 'input_image': return isLink(part.image_url) || typeof part.file_id === 'string' ? 'images' : null;
    case 'input_file': return typeof part.file_id === 'string' || typeof part.file_url === 'string' ? 'files' : null;
    case 'image': return isReferenceSource(part.source) ? 'images' : null;
    case 'document': return isReferenceSource(part.source) ? 'files' : null;
    default: break;
  }
  if (isPlainObject(part.fileData)) return String(part.fileData.mimeType ?? '').startsWith('image/') ? 'images' : 'files';
  for (const key of ['image', 'document', 'video'] as const) {
    const block = part[key];
    if (isPlainObject(block) && isPlainObject(block.source) && isPlainObject(block.source.s3Location)) return key === 'image' ? 'images' : 'files';
  }
  return null;
}

function isLink(url: unknown): boolean {
  return typeof url === 'string' && url !== '' && !url.startsWith('data:');
}

/** Anthropic's `{type: "url", url}` and `{type: "file", file_id}` sources (base64 and text ones are inline). */
function isReferenceSource(source: unknown): boolean {
  return isPlainObject(source) && (source.type === 'url' || source.type === 'file');
}
