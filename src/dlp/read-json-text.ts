// Tool arguments as the client will read them: JSON.parse(arguments) turns `\u0067hp_…`
// back into `ghp_…`, so a scanner of the raw JSON text would miss it. The reader takes the
// arguments in the fragments they arrive in (OpenAI's deltas, Anthropic's input_json_delta)
// and gives the text of every token decoded: each string (keys and values) with its escapes
// undone, each bare token (number, literal, or text that is not JSON at all) as it is. A
// newline ends each token, so two neighbouring values are never read as one secret; a token
// still open at a fragment's end is given as far as it goes (the stream scanner's look-behind
// joins it to its rest).

type Mode = 'between' | 'bare' | 'string' | 'escape' | 'unicode';

const STRUCTURAL = new Set(['{', '}', '[', ']', ',', ':', ' ', '\t', '\n', '\r']);
const HEX4 = /^[0-9a-fA-F]{4}$/;
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export interface JsonTextReader {
  /** One fragment of JSON text in; the decoded text of the tokens it carries (or continues) out. */
  push(fragment: string): string;
}

export function createJsonTextReader(): JsonTextReader {
  let mode: Mode = 'between';
  let hex = '';
  return {
    push(fragment) {
      let out = '';
      for (const character of fragment) {
        switch (mode) {
          case 'string':
            if (character === '"') { out += '\n'; mode = 'between'; } else if (character === '\\') mode = 'escape'; else out += character;
            break;
          case 'escape':
            if (character === 'u') { mode = 'unicode'; hex = ''; } else { out += SIMPLE_ESCAPES[character] ?? character; mode = 'string'; }
            break;
          case 'unicode':
            hex += character;
            if (hex.length === 4) {
              // Not hex: what a client's parser would refuse is scanned as written.
              out += HEX4.test(hex) ? String.fromCharCode(Number.parseInt(hex, 16)) : `\\u${hex}`;
              mode = 'string';
            }
            break;
          default:
            if (character === '"') {
              if (mode === 'bare') out += '\n';
              mode = 'string';
            } else if (STRUCTURAL.has(character)) {
              if (mode === 'bare') { out += '\n'; mode = 'between'; }
            } else {
              out += character;
              mode = 'bare';
            }
        }
      }
      return out;
    },
  };
}

/**
 * A whole JSON answer as the client reads it: every string that holds JSON (OpenAI's
 * `function.arguments`, Responses' `arguments`) replaced by its decoded tokens, so an escaped
 * secret in it is seen as its client's JSON.parse gives it back. A copy; the answer is untouched.
 */
export function decodeJsonStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return /^\s*[{[]/.test(value) ? createJsonTextReader().push(value) : value;
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => decodeJsonStrings(item, depth + 1));
  // fromEntries defines each key as its own (a `__proto__` key stays a key to scan).
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, decodeJsonStrings(item, depth + 1)]));
}
