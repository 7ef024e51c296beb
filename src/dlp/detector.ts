// What a detector is: an id (the audit key and the placeholder's type), a
// category that picks its default action, an optional keyword pre-filter (the
// gitleaks approach: a cheap `includes` before any pattern runs), and a finder.
// Built-in detectors also name their triggers (trigger-scan.ts): one shared pass
// decides for all of them at once, instead of one `includes` per keyword.

export type DlpCategory = 'secret' | 'pii' | 'custom';
export type DlpAction = 'block' | 'redact' | 'log';

export interface TextMatch {
  start: number;
  end: number;
}

export interface Detector {
  id: string;
  category: DlpCategory;
  description: string;
  /** The text must contain one of these (case-sensitive) for the finder to run. */
  keywords?: readonly string[];
  /**
   * TRIGGER bits (trigger-scan.ts), used instead of `keywords` when present: the
   * finder runs only if the text has one of them. Each must hold wherever the
   * finder matches and its keywords are present, and imply the keywords wherever
   * the finder could match without them, so the result is the keywords' exactly.
   */
  triggers?: number;
  find(text: string): TextMatch[];
}

/** A finder from a global regex; `validate` sees the match and `group` narrows it to one capture. */
export function regexFinder(pattern: RegExp, validate?: (match: RegExpExecArray) => boolean, group = 0): (text: string) => TextMatch[] {
  if (!pattern.global) throw new Error(`detector pattern ${pattern.source} must be global`);
  // One RegExp per finder, rewound on each call (scans are synchronous and a
  // validator never calls a finder), instead of one built per text scanned.
  const regex = new RegExp(pattern.source, pattern.flags);
  return (text) => {
    const matches: TextMatch[] = [];
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      if (match[0].length === 0) { regex.lastIndex += 1; continue; }
      if (validate && !validate(match)) continue;
      const value = match[group];
      if (value === undefined) continue;
      const start = match.index + (group === 0 ? 0 : match[0].indexOf(value));
      matches.push({ start, end: start + value.length });
    }
    return matches;
  };
}

export function hasKeyword(text: string, keywords: readonly string[] | undefined): boolean {
  if (!keywords) return true;
  for (const keyword of keywords) if (text.includes(keyword)) return true;
  return false;
}
