// What a detector is: an id (the audit key and the placeholder's type), a
// category that picks its default action, an optional keyword pre-filter (the
// gitleaks approach: a cheap `includes` before any pattern runs), and a finder.

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
  find(text: string): TextMatch[];
}

/** A finder from a global regex; `validate` sees the match and `group` narrows it to one capture. */
export function regexFinder(pattern: RegExp, validate?: (match: RegExpExecArray) => boolean, group = 0): (text: string) => TextMatch[] {
  if (!pattern.global) throw new Error(`detector pattern ${pattern.source} must be global`);
  return (text) => {
    const matches: TextMatch[] = [];
    const regex = new RegExp(pattern.source, pattern.flags);
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
