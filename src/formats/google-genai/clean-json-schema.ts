// Gemini's function `parameters` and `responseSchema` take an OpenAPI 3.0 subset, not
// JSON Schema: it rejects `$schema`, `additionalProperties`, `$ref` and others with a 400.
// https://ai.google.dev/api/caching#Schema ; https://ai.google.dev/gemini-api/docs/function-calling
// Each keyword removed becomes one `dropped:schema.<keyword>` warning (deduplicated).
import type { TranslationWarning } from '../../canonical/codec.js';
import { isPlainObject, type JsonRecord } from '../shared/json-guards.js';

/** Keywords Gemini's Schema object understands; everything else is removed. */
const KEPT = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'items', 'properties', 'required', 'anyOf',
  'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum',
  'propertyOrdering',
]);
/** Gemini accepts these `format`s only (others fail with "only 'enum' and 'date-time' are supported"). */
const FORMATS = new Set(['enum', 'date-time', 'int32', 'int64', 'float', 'double']);
const MAX_DEPTH = 48;

interface CleanState {
  definitions: JsonRecord;
  dropped: Set<string>;
  resolving: string[];
}

export function cleanJsonSchemaForGemini(schema: JsonRecord, warnings: TranslationWarning[]): JsonRecord {
  const definitions = { ...(isPlainObject(schema.definitions) ? schema.definitions : {}), ...(isPlainObject(schema.$defs) ? schema.$defs : {}) };
  const state: CleanState = { definitions, dropped: new Set(), resolving: [] };
  const cleaned = cleanNode(schema, state, 0);
  for (const keyword of state.dropped) warnings.push({ code: `dropped:schema.${keyword}` });
  return cleaned;
}

function cleanNode(node: JsonRecord, state: CleanState, depth: number): JsonRecord {
  if (depth > MAX_DEPTH) {
    state.dropped.add('depth');
    return {};
  }
  const resolved = resolveReference(node, state);
  if (resolved !== node) {
    const name = String(node.$ref);
    state.resolving.push(name);
    const result = cleanNode({ ...resolved, ...withoutKey(node, '$ref') }, state, depth + 1);
    state.resolving.pop();
    return result;
  }
  const output: JsonRecord = {};
  for (const [keyword, value] of Object.entries(node)) cleanKeyword(keyword, value, output, state, depth);
  if (Array.isArray(output.required) && isPlainObject(output.properties)) {
    const properties = output.properties;
    // A required name with no property is a 400 on Gemini.
    output.required = output.required.filter((name) => typeof name === 'string' && name in properties);
  }
  return output;
}

function cleanKeyword(keyword: string, value: unknown, output: JsonRecord, state: CleanState, depth: number): void {
  if (keyword === 'type') return cleanType(value, output);
  if (keyword === 'const') return mapConst(value, output, state);
  if (keyword === 'oneOf') return cleanKeyword('anyOf', value, output, state, depth);
  if (keyword === 'allOf' && Array.isArray(value) && value.length === 1 && isPlainObject(value[0])) {
    Object.assign(output, cleanNode(value[0], state, depth + 1));
    return;
  }
  if (keyword === 'format' && (typeof value !== 'string' || !FORMATS.has(value))) {
    state.dropped.add('format');
    return;
  }
  if (!KEPT.has(keyword)) {
    state.dropped.add(keyword);
    return;
  }
  output[keyword] = cleanValue(keyword, value, state, depth);
}

function cleanValue(keyword: string, value: unknown, state: CleanState, depth: number): unknown {
  if (keyword === 'properties' && isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, child]) => [name, isPlainObject(child) ? cleanNode(child, state, depth + 1) : child]));
  }
  if (keyword === 'items' && isPlainObject(value)) return cleanNode(value, state, depth + 1);
  if (keyword === 'items' && Array.isArray(value)) {
    // Tuple validation has no Gemini form: the first item's schema stands for all.
    state.dropped.add('items.tuple');
    return isPlainObject(value[0]) ? cleanNode(value[0], state, depth + 1) : {};
  }
  if (keyword === 'anyOf' && Array.isArray(value)) return value.filter(isPlainObject).map((child) => cleanNode(child, state, depth + 1));
  return value;
}

/** `["string","null"]` → `string` + `nullable`; other unions → `anyOf`. */
function cleanType(value: unknown, output: JsonRecord): void {
  if (!Array.isArray(value)) {
    if (typeof value === 'string') output.type = value.toLowerCase();
    return;
  }
  const types = value.filter((type): type is string => typeof type === 'string').map((type) => type.toLowerCase());
  const nonNull = types.filter((type) => type !== 'null');
  if (nonNull.length < types.length) output.nullable = true;
  if (nonNull.length === 1) output.type = nonNull[0];
  else if (nonNull.length > 1) output.anyOf = nonNull.map((type) => ({ type }));
}

/** Gemini has no `const`; a string const is a one-value enum. */
function mapConst(value: unknown, output: JsonRecord, state: CleanState): void {
  if (typeof value === 'string') {
    output.enum = [value];
    if (output.type === undefined) output.type = 'string';
  } else {
    state.dropped.add('const');
  }
}

/** Inlines a local `#/definitions/X` or `#/$defs/X`; a remote or cyclic one is dropped. */
function resolveReference(node: JsonRecord, state: CleanState): JsonRecord {
  if (typeof node.$ref !== 'string') return node;
  const match = /^#\/(?:definitions|\$defs)\/(.+)$/.exec(node.$ref);
  const target = match ? state.definitions[decodeURIComponent(match[1]!)] : undefined;
  if (!isPlainObject(target) || state.resolving.includes(node.$ref)) {
    state.dropped.add('$ref');
    // Gemini wants a type on every schema; a recursive reference is almost always an object.
    const rest = withoutKey(node, '$ref');
    return Object.keys(rest).length > 0 ? rest : { type: 'object' };
  }
  return target;
}

function withoutKey(node: JsonRecord, key: string): JsonRecord {
  const { [key]: _removed, ...rest } = node;
  return rest;
}

/** Gemini CLI and OpenAPI-style clients send `"type": "OBJECT"`; canonical schemas use JSON Schema's lowercase names. */
export function normalizeGeminiSchema(node: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return node;
  if (Array.isArray(node)) return node.map((child) => normalizeGeminiSchema(child, depth + 1));
  if (!isPlainObject(node)) return node;
  const output: JsonRecord = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'type' && typeof value === 'string') output.type = value.toLowerCase();
    else if (keyword === 'properties' && isPlainObject(value)) {
      output.properties = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, normalizeGeminiSchema(child, depth + 1)]));
    } else if (keyword === 'items' || keyword === 'anyOf') output[keyword] = normalizeGeminiSchema(value, depth + 1);
    else output[keyword] = value;
  }
  return output;
}
