// A stored command line (a local MCP server's `--command`) is shown by `gw mcp list`, the
// remote CLI and the console's MCP page. A token pasted into it (`--api-key sk-…`,
// `--token=ghp_…`, a URL with a password or a key in its query) must not be shown back: each
// word the built-in DLP rules take for a secret is replaced by ***, and a URL keeps its shape
// with its password hidden. What runs is unchanged; only what is shown is masked.
import { maskUrlCredentials } from '../mask-url-credentials.js';
import { resolveDlpSettings } from './dlp-config.js';
import { scanPlaces } from './scan-places.js';
import { urlCarriesSecret } from './url-carries-secret.js';

let builtIns: ReturnType<typeof resolveDlpSettings> | null = null;

function isSecret(text: string): boolean {
  builtIns ??= resolveDlpSettings([], ['*']);
  return scanPlaces([{ place: 'header', text }], builtIns.rules, builtIns.cache).findings.length > 0;
}

function maskWord(word: string): string {
  // `--flag=value`: the flag stays readable, the value is judged on its own.
  const equals = word.startsWith('-') ? word.indexOf('=') : -1;
  if (equals > 0) return `${word.slice(0, equals + 1)}${maskWord(word.slice(equals + 1))}`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) {
    const masked = maskUrlCredentials(word);
    return urlCarriesSecret(masked) ? '***' : masked;
  }
  return isSecret(word) ? '***' : word;
}

/** The words of a command line as they may be shown: secrets replaced by ***. */
export function maskSecretWords(words: readonly string[]): string[] {
  return words.map(maskWord);
}
