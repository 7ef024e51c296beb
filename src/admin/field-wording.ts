// The console's words for a refused form field (issue 40). A remote command refuses a value in
// the CLI's words, naming its flag (`gw: invalid --amount "-1": USD > 0`); someone at a form
// has a field, not a flag. The commands route adds this rewording beside the CLI's own text
// (which `gw … --hub` keeps printing). Pure: text in, text out.

/** Flags whose field is labelled otherwise than the flag read as words. */
const FIELD_LABELS: Record<string, string> = {
  'base-url': 'Base URL', 'api-key': 'API key', 'api-version': 'API version', rpm: 'Requests/min', tpm: 'Tokens/min',
  'max-tokens': 'Max tokens', 'time-zone': 'Time zone', 'cache-read': 'Cache read price', 'cache-write': 'Cache write price',
  input: 'Input price', output: 'Output price',
};

/** Reasons whose console wording is not "must be <reason>". */
const REASONS: Record<string, string> = {
  'USD > 0': 'must be more than 0 USD',
  'a number of USD ≥ 0': 'must be a number of USD, 0 or more',
};

function labelOf(flag: string): string {
  const known = FIELD_LABELS[flag];
  if (known !== undefined) return known;
  const words = flag.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function reasonOf(reason: string): string {
  const known = REASONS[reason];
  if (known !== undefined) return known;
  if (reason.startsWith('use ')) return `must be ${reason.slice(4)}`;
  if (/^(start|name|write)\b/.test(reason)) return `must ${reason}`;
  return `must be ${reason}`;
}

/**
 * A CLI refusal of one flag's value in a form's words: `invalid --amount "-1": USD > 0` →
 * `Amount must be more than 0 USD (not "-1")`; null when the text is not such a refusal.
 */
export function fieldWording(cliText: string): string | null {
  const found = /(?:^|\n)(?:gw: )?invalid --([a-z0-9-]+) "([^"\n]*)": ([^\n]+)/.exec(cliText);
  if (found === null) return null;
  const [, flag = '', value = '', reason = ''] = found;
  return `${labelOf(flag)} ${reasonOf(reason.trim())} (not "${value}")`;
}
