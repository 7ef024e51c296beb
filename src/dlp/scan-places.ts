// DLP over what leaves besides the body: the model name, the URL path (a GenAI
// model, a passthrough path, a resource id), each query name and value, each
// header gw forwards. These cannot be rewritten the way a body string can (a
// redacted model is another model, a redacted header another request), so a
// redact rule blocks here as a block rule does; a log rule is counted.
//
// Each finding names its rule and its place (`model`, `path`, `query`,
// `header:user-agent`), never the text. The caller gets the text of a place with
// every match masked (`maskedText`), so what it records about the call (the model
// name) carries the finding, not the value.
import type { CleanTextCache } from './clean-text-cache.js';
import type { DlpAction } from './detector.js';
import { findMatches, placeholderFor, type ActiveRule, type RuleMatch } from './find-matches.js';
import { prepareText } from './normalize-text.js';

export interface PlaceText {
  /** `model`, `path`, `query`, `header:<name>`. */
  place: string;
  text: string;
}

export interface PlaceFinding {
  rule: string;
  place: string;
  action: DlpAction;
}

export interface PlaceScan {
  /** One per match, in the order of the places. */
  findings: PlaceFinding[];
  /** The first finding under a block or redact rule, or null. */
  blocked: PlaceFinding | null;
  /** Place → its text with every match (whatever its action) replaced by the rule's placeholder; only places with a match. */
  masked: Map<string, string>;
  /**
   * What matched, so the caller can make sure none of it is written anywhere: each match
   * (as normalised) and, when normalisation changed it, the whole text as given.
   */
  matchedTexts: string[];
}

export function scanPlaces(places: readonly PlaceText[], rules: readonly ActiveRule[], cache?: CleanTextCache): PlaceScan {
  const scan: PlaceScan = { findings: [], blocked: null, masked: new Map(), matchedTexts: [] };
  if (rules.length === 0) return scan;
  for (const { place, text } of places) {
    // Header values and names repeat from call to call (a client's user agent, its betas): the clean-key set remembers them.
    if (text.length === 0 || cache?.hasKey(text)) continue;
    const { normalized, folded } = prepareText(text);
    const matches = findMatches(folded, rules);
    if (matches.length === 0) {
      cache?.addKey(text);
      continue;
    }
    for (const match of matches) {
      const finding: PlaceFinding = { rule: match.rule.detector.id, place, action: match.rule.action };
      scan.findings.push(finding);
      if (finding.action !== 'log') scan.blocked ??= finding;
    }
    scan.masked.set(place, maskMatches(normalized, matches));
    for (const match of matches) scan.matchedTexts.push(normalized.slice(match.start, match.end));
    if (normalized !== text) scan.matchedTexts.push(text);
  }
  return scan;
}

/** The text with every match, whatever its rule's action, replaced by its placeholder. */
function maskMatches(text: string, matches: readonly RuleMatch[]): string {
  let output = '';
  let cursor = 0;
  for (const match of matches) {
    output += text.slice(cursor, match.start) + placeholderFor(match.rule.detector.id);
    cursor = match.end;
  }
  return output + text.slice(cursor);
}

/**
 * A percent-encoded path as the provider's router will read it. Each run of escapes is
 * decoded on its own, so one malformed escape does not leave the rest encoded (`%67hp_…`
 * is `ghp_…` whatever else the path holds).
 */
export function decodePath(path: string): string {
  if (!path.includes('%')) return path;
  return path.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
