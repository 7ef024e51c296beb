// Object keys and a body that is one string are text that leaves (issue 26): a secret
// used as a key is found, blocks under a block rule, is renamed under a redact rule
// (blocked when the new name is taken), and the clean-key cache spares the scan of
// the names every request repeats without hiding a new one.
import { describe, expect, it } from 'vitest';
import { createCleanTextCache } from '../../src/dlp/clean-text-cache.js';
import { resolveDlpSettings, type DlpScopeRecord } from '../../src/dlp/dlp-config.js';
import type { ActiveRule } from '../../src/dlp/find-matches.js';
import { scanRequestBody } from '../../src/dlp/scan-request.js';
import { walkStrings } from '../../src/dlp/walk-strings.js';
import { SAMPLES } from './samples.js';

const SECRET = SAMPLES.githubPat;
const rules = (records: DlpScopeRecord[] = []) => resolveDlpSettings(records, ['*']).rules;
const REDACT: DlpScopeRecord[] = [{ scope: '*', actions: { github_token: 'redact', aws_access_key: 'redact' } }];

describe('object keys', () => {
  it('the walk lists every key, nested and in arrays, apart from the values', () => {
    const walk = walkStrings({ a: { [SECRET]: 1 }, list: [{ b: 'x' }] });
    expect(walk.keys.map((leaf) => leaf.value).sort()).toEqual(['a', 'list', SECRET, 'b'].sort());
    expect(walk.leaves.map((leaf) => leaf.value)).toEqual(['x']);
  });

  it('a secret used as a key blocks, at any depth, in any place', () => {
    for (const body of [
      { [SECRET]: 'v' },
      { tools: [{ function: { parameters: { properties: { [`x_${SECRET}`]: { type: 'string' } } } } }] },
      { messages: [{ role: 'user', content: 'hi' }], metadata: { [SECRET]: true } },
    ]) {
      expect(scanRequestBody(body, rules())).toMatchObject({ blockedBy: 'github_token', counts: { github_token: 1 } });
    }
  });

  it('a key that splits a secret with confusables or invisible characters is still found', () => {
    const disguised = `${SECRET.slice(0, 6)}\u200B${SECRET.slice(6)}`.replace('p', '\u0440');
    expect(scanRequestBody({ [disguised]: 1 }, rules()).blockedBy).toBe('github_token');
  });

  it('redact renames the key in place, keeping the members\' order and values', () => {
    const body: Record<string, unknown> = { first: 1, [`k ${SECRET}`]: { inner: 'v' }, last: 3 };
    const scan = scanRequestBody(body, rules(REDACT));
    expect(scan).toMatchObject({ blockedBy: null, redacted: 1, counts: { github_token: 1 } });
    expect(Object.keys(body)).toEqual(['first', 'k [REDACTED:github_token]', 'last']);
    expect(body['k [REDACTED:github_token]']).toEqual({ inner: 'v' });
    expect(JSON.stringify(body)).not.toContain(SECRET);
  });

  it('a renamed key whose value also carries a secret: both redacted, nothing of either left', () => {
    const body = { outer: { [SECRET]: `value ${SAMPLES.awsKeyId}` } };
    scanRequestBody(body, rules(REDACT));
    expect(body).toEqual({ outer: { '[REDACTED:github_token]': 'value [REDACTED:aws_access_key]' } });
  });

  it('two keys that would redact to the same name block the body instead of merging them', () => {
    const body = { [SECRET]: 1, [SAMPLES.githubOauth]: 2 };
    expect(scanRequestBody(body, rules(REDACT)).blockedBy).toBe('github_token');
  });

  it('a key named __proto__ stays a plain member after a rename beside it', () => {
    const body = JSON.parse(`{"__proto__":{"polluted":1},"${SECRET}":2}`) as Record<string, unknown>;
    scanRequestBody(body, rules(REDACT));
    expect(Object.keys(body)).toEqual(['__proto__', '[REDACTED:github_token]']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
  });

  it('a custom rule matching a key name blocks', () => {
    const custom: DlpScopeRecord[] = [{ scope: '*', custom: [{ id: 'project_x', pattern: 'project-x', action: 'block' }] }];
    expect(scanRequestBody({ 'project-x': 'budget' }, rules(custom)).blockedBy).toBe('project_x');
  });
});

describe('the clean-key cache', () => {
  const counting = () => {
    const seen: string[] = [];
    const rule: ActiveRule = { detector: { id: 'counting', category: 'custom', description: 'notes what it reads', find: (text) => { seen.push(text); return []; } }, action: 'log' };
    return { seen, rule };
  };

  it('a name found clean is not scanned again; a new name is, and a secret key is found the next time too', () => {
    const { seen, rule } = counting();
    const { rules: active, cache } = resolveDlpSettings([], ['*']);
    const all = [...active, rule];
    const turn = (extra: Record<string, unknown> = {}) => ({ model: 'm', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }], ...extra });
    scanRequestBody(turn(), all, cache);
    expect(seen.filter((text) => text === 'role')).toHaveLength(1);
    seen.length = 0;
    scanRequestBody(turn(), all, cache);
    expect(seen.filter((text) => ['model', 'messages', 'role', 'content'].includes(text))).toEqual([]);
    for (let pass = 0; pass < 2; pass += 1) expect(scanRequestBody(turn({ [SECRET]: 1 }), all, cache).blockedBy).toBe('github_token');
  });

  it('within one scan a repeated name is judged once, with or without a cache', () => {
    const { seen, rule } = counting();
    const body = { messages: Array.from({ length: 50 }, () => ({ role: 'user', content: 'same' })) };
    scanRequestBody(body, [rule]);
    expect(seen.filter((text) => text === 'role')).toHaveLength(1);
  });

  it('the set is bounded: long names are not kept', () => {
    const cache = createCleanTextCache();
    cache.addKey('k'.repeat(300));
    cache.addKey('role');
    expect([cache.hasKey('k'.repeat(300)), cache.hasKey('role')]).toEqual([false, true]);
  });
});

describe('a body whose top level is not an object', () => {
  it('a top-level string is scanned and blocks', () => {
    expect(scanRequestBody(`key ${SAMPLES.awsKeyId} here`, rules()).blockedBy).toBe('aws_access_key');
  });

  it('a redacted top-level string comes back as the scan\'s body', () => {
    const scan = scanRequestBody(`key ${SAMPLES.awsKeyId} here`, rules(REDACT));
    expect(scan.body).toBe('key [REDACTED:aws_access_key] here');
  });

  it('an array of strings at the top level is scanned', () => {
    expect(scanRequestBody(['a', SECRET], rules()).blockedBy).toBe('github_token');
  });

  it('numbers, booleans and null pass and come back as they were', () => {
    for (const body of [42, true, null]) expect(scanRequestBody(body, rules())).toMatchObject({ blockedBy: null, body });
  });
});
