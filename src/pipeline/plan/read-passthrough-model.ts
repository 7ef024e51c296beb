// The models a passthrough call runs, read the way its provider family names them: in the
// path (GenAI `models/{model}:generateContent`, Bedrock `model/{id}/converse`, Azure
// `deployments/{name}/…`) and in the body (a top-level `model`, the `params.model` of each
// request in an Anthropic message batch). The body parser has already read any body that looks
// like JSON as JSON, whatever its declared type (src/server/body-parsers.ts); a body that stayed
// bytes is one whose model gw cannot read. A multipart form's `model` is read by read-form-model.ts.
import { isPlainObject } from '../../is-plain-object.js';

export interface PassthroughModels {
  /** The model names as the call gives them (`gpt-4o`; GenAI's `models/` prefix dropped). */
  models: string[];
  /** Why the model cannot be read, when the body holds one gw cannot see into; else null. */
  unreadable: string | null;
}

/** `…/models/gemini-2.5-flash:generateContent` (GenAI; tuned models too). */
const GENAI_PATH = /\/(?:tunedModels|models)\/([^/:]+):[A-Za-z]+$/;
/** `…/model/{id}/converse` and the other Bedrock runtime calls. */
const BEDROCK_PATH = /\/model\/([^/]+)\/(?:converse|converse-stream|invoke|invoke-with-response-stream)$/;
/** `…/openai/deployments/{name}/chat/completions` (Azure OpenAI). */
const AZURE_PATH = /\/deployments\/([^/]+)\/./;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return isPlainObject(value) && !Buffer.isBuffer(value) && typeof (value as { pipe?: unknown }).pipe !== 'function';
}

/** `rest` is the passthrough path after the prefix, still percent-encoded, query included. */
export function readPathModel(rest: string): string | null {
  const path = rest.split('?')[0]!;
  for (const pattern of [GENAI_PATH, BEDROCK_PATH, AZURE_PATH]) {
    const match = pattern.exec(path);
    if (!match) continue;
    try {
      return decodeURIComponent(match[1]!);
    } catch {
      return match[1]!;
    }
  }
  return null;
}

/** A GenAI body names a model as `models/gemini-2.5-flash`; the path and the policy say `gemini-2.5-flash`. */
function bareModel(name: string): string {
  return name.startsWith('models/') ? name.slice('models/'.length) : name;
}

/**
 * The models a parsed body names. A `model` that is there but not a non-empty string makes the
 * body unreadable rather than model-less: the provider may still make something of it.
 */
export function readBodyModels(body: unknown): PassthroughModels {
  if (body === null || body === undefined) return { models: [], unreadable: null };
  if (Buffer.isBuffer(body)) return { models: [], unreadable: body.length === 0 ? null : 'the body is not JSON' };
  if (typeof body !== 'object') return { models: [], unreadable: 'the body is not a JSON object' };
  if (typeof (body as { pipe?: unknown }).pipe === 'function') return { models: [], unreadable: 'the body is too large to read before it is forwarded, and not a form' };
  const models: string[] = [];
  const objects = Array.isArray(body) ? body : [body];
  for (const object of objects) {
    if (!isObject(object)) return { models, unreadable: 'the body holds something other than JSON objects' };
    const problem = collectModels(object, models);
    if (problem !== null) return { models, unreadable: problem };
  }
  return { models, unreadable: null };
}

function collectModels(object: JsonObject, into: string[]): string | null {
  if (Object.hasOwn(object, 'model')) {
    if (typeof object.model !== 'string' || object.model === '') return '"model" is not a non-empty string';
    into.push(bareModel(object.model));
  }
  // A realtime session or client secret (POST /v1/realtime/client_secrets) names its model in `session`.
  if (isObject(object.session) && Object.hasOwn(object.session, 'model')) {
    if (typeof object.session.model !== 'string' || object.session.model === '') return '"session.model" is not a non-empty string';
    into.push(object.session.model);
  }
  // An Anthropic message batch: each request carries its own model.
  if (Array.isArray(object.requests)) {
    for (const [index, request] of object.requests.entries()) {
      const params = isObject(request) ? request.params : undefined;
      if (!isObject(params)) continue;
      if (typeof params.model !== 'string' || params.model === '') return `requests[${index}].params.model is not a non-empty string`;
      into.push(params.model);
    }
  }
  return null;
}

/**
 * Calls that run no model whatever their body says: uploading a file and cancelling or deleting
 * through POST. Anything else that names no model may run the provider's default, which a model
 * list cannot allow (the same rule as a resource route that names none).
 */
const MODEL_LESS_POSTS = [/\/files$/, /\/uploads(\/[^/]+(\/parts|\/complete)?)?$/, /^\/upload\//, /\/cancel$/, /:cancel$/, /\/delete$/];

export function runsNoModel(method: string, rest: string): boolean {
  if (method !== 'POST') return true;
  const path = rest.split('?')[0]!;
  return MODEL_LESS_POSTS.some((pattern) => pattern.test(path));
}
