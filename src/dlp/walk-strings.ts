// Every string a request carries, whatever its dialect: the walk visits each
// string leaf of the parsed JSON (messages, system, tools and their schemas, tool
// results, Responses input items, GenAI parts…) instead of knowing field names,
// so a new dialect or field cannot slip past. Binary payloads are skipped by
// design (base64 is not text and only yields false positives and CPU): `data` /
// `bytes` beside a media type, and `data:…;base64,` URLs.

export type JsonContainer = Record<string, unknown> | unknown[];

export interface StringLeaf {
  container: JsonContainer;
  key: string | number;
  value: string;
  /** `value` normalised, once the scan has computed it (the joint check reuses it instead of normalising whole texts again). */
  normalized?: string;
}

/** Two neighbouring text parts of one array: a secret split across them is found on the joint. */
export interface AdjacentPair {
  left: StringLeaf;
  right: StringLeaf;
}

export interface WalkResult {
  leaves: StringLeaf[];
  pairs: AdjacentPair[];
  /** How many binary strings were skipped. */
  binarySkipped: number;
  /** Object keys in the whole tree (compared with the raw bytes' to spot duplicate keys). */
  objectKeys: number;
}

const MEDIA_TYPE_KEYS = ['media_type', 'mime_type', 'mimeType', 'format'];
const DATA_URL = /^data:[^,]{0,200};base64,/;
const MAX_DEPTH = 256;

function isBinary(container: JsonContainer, key: string | number, value: string): boolean {
  if (value.length < 64) return false;
  if (value.startsWith('data:') && DATA_URL.test(value)) return true;
  if (Array.isArray(container) || (key !== 'data' && key !== 'bytes')) return false;
  return MEDIA_TYPE_KEYS.some((name) => typeof container[name] === 'string') || container.type === 'base64';
}

/** The text of an array element that is a text part: a string, or an object with a string `text`. */
function textLeafOf(element: unknown): StringLeaf | null {
  if (typeof element === 'string') return null; // handled by the caller with its index
  if (typeof element !== 'object' || element === null || Array.isArray(element)) return null;
  const text = (element as Record<string, unknown>).text;
  return typeof text === 'string' ? { container: element as Record<string, unknown>, key: 'text', value: text } : null;
}

export function walkStrings(root: unknown): WalkResult {
  const result: WalkResult = { leaves: [], pairs: [], binarySkipped: 0, objectKeys: 0 };
  visit(root, result, 0);
  return result;
}

function visit(node: unknown, result: WalkResult, depth: number): void {
  if (typeof node !== 'object' || node === null || depth > MAX_DEPTH) return;
  if (Array.isArray(node)) {
    let previous: StringLeaf | null = null;
    for (let index = 0; index < node.length; index += 1) {
      const element: unknown = node[index];
      const leaf = typeof element === 'string' ? visitString(node, index, element, result) : textLeafOf(element);
      if (typeof element !== 'string') visit(element, result, depth + 1);
      if (leaf && previous) result.pairs.push({ left: previous, right: leaf });
      previous = leaf;
    }
    return;
  }
  const object = node as Record<string, unknown>;
  const keys = Object.keys(object);
  result.objectKeys += keys.length;
  for (const key of keys) {
    const value = object[key];
    if (typeof value === 'string') visitString(object, key, value, result);
    else visit(value, result, depth + 1);
  }
}

function visitString(container: JsonContainer, key: string | number, value: string, result: WalkResult): StringLeaf | null {
  if (isBinary(container, key, value)) {
    result.binarySkipped += 1;
    return null;
  }
  const leaf = { container, key, value };
  result.leaves.push(leaf);
  return leaf;
}
