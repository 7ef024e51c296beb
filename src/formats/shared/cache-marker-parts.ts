// What the cache markers of every format share (docs/prompt-cache.md): finding a marker the
// client already sent anywhere in a body, and marking the last object of a list without
// copying the rest of the body.
import { isPlainObject } from '../../is-plain-object.js';

type JsonObject = Record<string, unknown>;

/** A copy of the list with its last object extended (the others shared, not copied). */
export function withLastMarked(list: readonly unknown[], marker: JsonObject): unknown[] {
  const copy = [...list];
  copy[copy.length - 1] = { ...(copy[copy.length - 1] as JsonObject), ...marker };
  return copy;
}

/** Whether `name` is a key anywhere in the JSON value (a client's marker on any block). */
export function hasKey(value: unknown, name: string): boolean {
  if (Array.isArray(value)) return value.some((item) => hasKey(item, name));
  if (!isPlainObject(value)) return false;
  for (const [key, child] of Object.entries(value)) if (key === name || hasKey(child, name)) return true;
  return false;
}
