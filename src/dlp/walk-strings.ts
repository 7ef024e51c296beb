// Every string a request carries, whatever its dialect: the walk visits each
// string leaf of the parsed JSON (messages, system, tools and their schemas, tool
// results, Responses input items, GenAI parts…) instead of knowing field names,
// so a new dialect or field cannot slip past. Binary payloads are skipped by
// design (base64 is not text and only yields false positives and CPU): `data` /
// `bytes` beside a media type, and `data:…;base64,` URLs, when what they hold
// really is base64 and is declared as media (an image, audio, a PDF); base64 declared
// as text (`data:text/plain;base64,…`) is decoded and scanned. A source that says
// `type: "text"` (an Anthropic plain-text document) is text and is scanned.
//
// The walk keeps its own stack instead of recursing: however deep a body nests,
// every string is visited (a depth limit would be a place to hide a secret, and
// recursion a stack overflow).
//
// Object keys are strings that leave too (`{"ghp_…": 1}` reaches the provider as
// surely as a value does), so every key is listed as well, apart from the values:
// keys are short and repeat (`role`, `content`, `type`…), so the caller may name
// the ones its rules already found clean and the walk does not list them again.
// A body whose top level is itself a string (`"key AKIA…"`) is one leaf.

import { itemAt } from '../item-at.js';
import type { RuleMatch } from './find-matches.js';

export type JsonContainer = Record<string, unknown> | unknown[];

export interface StringLeaf {
  container: JsonContainer;
  key: string | number;
  value: string;
  /** `value` normalised, once the scan has computed it (the joint check reuses it instead of normalising whole texts again). */
  normalized?: string;
  /** `normalized` with confusables folded: what detectors read. */
  folded?: string;
  /** Part of a run (below): its own matches wait for the run's, so a secret that continues in the next part is one match. */
  inRun?: boolean;
  /** The leaf scan's matches, kept for the run when `inRun`. */
  matches?: RuleMatch[];
  /** The leaf is an object key (`key` and `value` are its name), not a value: a redaction renames it. */
  isKey?: boolean;
}

export interface EncodedText {
  container: JsonContainer;
  key: string | number;
  value: string;
  /** Where the base64 begins in `value` (after a data URL's header; 0 for a bare payload). */
  from: number;
}

export interface WalkOptions {
  /** Object keys the caller's rules already found clean: not listed in `keys`. */
  isCleanKey?: (name: string) => boolean;
}

export interface WalkResult {
  leaves: StringLeaf[];
  /**
   * Runs of text the model reads one after the other: the text parts of an
   * array, and on through consecutive messages (`messages[i].content`, content
   * blocks, tool results, GenAI `parts`). A secret split across any number of
   * them is found on their joints. Only runs of two or more leaves are listed.
   */
  runs: StringLeaf[][];
  /** How many binary strings were skipped. */
  binarySkipped: number;
  /** Base64 payloads declared as text (`data:text/plain;base64,…`, a JSON document's `data`): their decoded text is scanned. */
  encodedText: EncodedText[];
  /** Object keys in the whole tree (compared with the raw bytes' to spot duplicate keys). */
  objectKeys: number;
  /** Every object key not named clean by `isCleanKey` (one leaf each time a name occurs). */
  keys: StringLeaf[];
  /** Holds the root: a top-level string redacted is written back here (`holder.root`). */
  holder: { root: unknown };
}

const MEDIA_TYPE_KEYS = ['media_type', 'mime_type', 'mimeType', 'format'];
const DATA_URL = /^data:[^,]{0,200};base64,/;
/** Keys of an element of a text run whose value continues the run: a part's text, a message's content, a GenAI content's parts, a Responses output. */
const RUN_KEYS = new Set(['text', 'content', 'parts', 'output']);

/**
 * Media types whose bytes are text: a base64 payload declared as one of these (a `.env` file
 * sent as `data:text/plain;base64,…`) is decoded and scanned, not skipped.
 */
const TEXT_MEDIA_TYPE = /^(?:text\/|application\/(?:[\w.-]+\+)?(?:json|jsonl|x-ndjson|xml|yaml|x-yaml|toml|javascript|x-sh|sql)(?:$|;))/i;

/** Where a base64 payload begins in `value` (after a data URL's header), or -1 when the string is text to scan as it is. */
function base64Start(container: JsonContainer, key: string | number, value: string): number {
  if (value.length < 64) return -1;
  if (value.startsWith('data:')) {
    const header = DATA_URL.exec(value);
    return header !== null && isBase64(value, header[0].length) ? header[0].length : -1;
  }
  if (Array.isArray(container) || (key !== 'data' && key !== 'bytes')) return -1;
  if (container.type === 'text') return -1;
  const declared = MEDIA_TYPE_KEYS.some((name) => typeof container[name] === 'string') || container.type === 'base64';
  return declared && isBase64(value, 0) ? 0 : -1;
}

function declaredMediaType(container: JsonContainer, value: string, from: number): string {
  if (from > 0) return value.slice('data:'.length, from);
  if (Array.isArray(container)) return '';
  const named = MEDIA_TYPE_KEYS.map((name) => container[name]).find((type) => typeof type === 'string');
  return typeof named === 'string' ? named : '';
}

// What is skipped must really be base64: a `data:…;base64,` URL or an `input_audio.data`
// that holds plain text (`my key is AKIA…`) is text the provider reads, and is scanned.
const STANDARD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE_BASE64 = /^[A-Za-z0-9_-]*={0,2}$/;

/** `value` from `from` on is base64 (standard, padded to a multiple of four; or URL-safe). One pass of a simple class: about a millisecond a megabyte. */
function isBase64(value: string, from: number): boolean {
  const payload = from === 0 ? value : value.slice(from);
  if (payload.length % 4 === 0 && STANDARD_BASE64.test(payload)) return true;
  // Unpadded: URL-safe (or standard without `+` and `/`), never a length no encoder produces.
  return payload.length % 4 !== 1 && URL_SAFE_BASE64.test(payload);
}

export function walkStrings(root: unknown, options: WalkOptions = {}): WalkResult {
  const holder = { root };
  const result: WalkResult = { leaves: [], runs: [], binarySkipped: 0, encodedText: [], objectKeys: 0, keys: [], holder };
  const isCleanKey = options.isCleanKey;
  // Three parallel stacks (no object per node): the container, the key in it, and the run a text there joins (null: none).
  const containers: JsonContainer[] = [holder];
  const keys: Array<string | number> = ['root'];
  const runOf: Array<StringLeaf[] | null> = [null];
  const allRuns: StringLeaf[][] = [];
  for (let container = containers.pop(); container !== undefined; container = containers.pop()) {
    const key = keys.pop();
    let run = runOf.pop();
    if (key === undefined || run === undefined) break; // never: the three stacks move together
    const node = (container as Record<string | number, unknown>)[key];
    if (typeof node === 'string') {
      const from = base64Start(container, key, node);
      if (from >= 0) {
        if (TEXT_MEDIA_TYPE.test(declaredMediaType(container, node, from))) result.encodedText.push({ container, key, value: node, from });
        else result.binarySkipped += 1;
      } else {
        const leaf: StringLeaf = { container, key, value: node };
        result.leaves.push(leaf);
        run?.push(leaf);
      }
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    // Children are pushed last first, so they are visited in document order and runs fill in reading order.
    if (Array.isArray(node)) {
      if (run === null) {
        run = [];
        allRuns.push(run);
      }
      for (let index = node.length - 1; index >= 0; index -= 1) {
        containers.push(node);
        keys.push(index);
        runOf.push(run);
      }
      continue;
    }
    const object = node as Record<string, unknown>;
    const names = Object.keys(object);
    result.objectKeys += names.length;
    for (let index = names.length - 1; index >= 0; index -= 1) {
      const name = itemAt(names, index);
      // Keys in one pass with the children (each object's listed last first; their order does not matter to the scan).
      if (isCleanKey === undefined || !isCleanKey(name)) result.keys.push({ container: object, key: name, value: name, isKey: true });
      containers.push(object);
      keys.push(name);
      runOf.push(run !== null && RUN_KEYS.has(name) ? run : null);
    }
  }
  for (const run of allRuns) {
    if (run.length < 2) continue;
    result.runs.push(run);
    for (const leaf of run) leaf.inRun = true;
  }
  return result;
}
