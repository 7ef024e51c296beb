// The log line names the path a call was made to. A call DLP governed says whether its
// URL matched (request-trace.ts); one refused before (at the door, an unknown route, a
// malformed body) was never scanned, yet its path may hold a GenAI model or a query name
// carrying a key. This check runs the built-in rules at their defaults over such a path,
// percent-escapes decoded, so the record stage can leave it out of the line.
import { resolveDlpSettings } from './dlp-config.js';
import { scanPlaces, decodePath } from './scan-places.js';

let builtIns: ReturnType<typeof resolveDlpSettings> | null = null;

export function urlCarriesSecret(url: string): boolean {
  builtIns ??= resolveDlpSettings([], ['*']);
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  const places = [{ place: 'path', text: decodePath(path) }];
  if (queryStart >= 0) {
    for (const [name, value] of new URLSearchParams(url.slice(queryStart + 1))) places.push({ place: 'query', text: name }, { place: 'query', text: value });
  }
  return scanPlaces(places, builtIns.rules, builtIns.cache).findings.length > 0;
}

/** The path of a refused call as the audit trail keeps it (auth.refused, guard.refused): without its query, and withheld when the built-in rules match it. */
export function pathToRecord(url: string): string {
  const path = url.split('?')[0] || '/';
  return urlCarriesSecret(path) ? '(withheld: DLP matched the path)' : path;
}
