// What leaves besides the body (the model, the URL, headers): each match becomes a
// finding {rule, place}; block and redact rules refuse (a URL or header cannot be
// rewritten); the masked text carries the placeholder, never the value; a path's
// percent-escapes are decoded run by run; a path refused before DLP ran is checked
// with the built-in rules before it is logged or recorded.
import { describe, expect, it } from 'vitest';
import { resolveDlpSettings, type DlpScopeRecord } from '../../src/dlp/dlp-config.js';
import { decodePath, scanPlaces } from '../../src/dlp/scan-places.js';
import { pathToRecord, urlCarriesSecret } from '../../src/dlp/url-carries-secret.js';
import { SAMPLES } from './samples.js';

const rules = (records: DlpScopeRecord[] = []) => resolveDlpSettings(records, ['*']).rules;

describe('scanPlaces', () => {
  it('a secret in the model is a finding with its place, blocks, and is masked', () => {
    const scan = scanPlaces([{ place: 'header:user-agent', text: 'probe/1.0' }, { place: 'model', text: `fake/${SAMPLES.githubPat}` }], rules());
    expect(scan.findings).toEqual([{ rule: 'github_token', place: 'model', action: 'block' }]);
    expect(scan.blocked).toEqual({ rule: 'github_token', place: 'model', action: 'block' });
    expect(scan.masked.get('model')).toBe('fake/[REDACTED:github_token]');
  });

  it('a redact rule refuses too: a header or URL cannot be rewritten safely', () => {
    const scan = scanPlaces([{ place: 'header:openai-organization', text: SAMPLES.awsKeyId }], rules([{ scope: '*', actions: { aws_access_key: 'redact' } }]));
    expect(scan.blocked?.rule).toBe('aws_access_key');
  });

  it('a log rule is a finding that does not refuse, and its text is masked for the record', () => {
    const scan = scanPlaces([{ place: 'model', text: `x/${SAMPLES.email}` }], rules());
    expect(scan).toMatchObject({ blocked: null, findings: [{ rule: 'email', place: 'model', action: 'log' }] });
    expect(scan.masked.get('model')).toBe('x/[REDACTED:email]');
  });

  it('a clean text is remembered by the cache; a disguised secret is still found', () => {
    const settings = resolveDlpSettings([], ['*']);
    scanPlaces([{ place: 'header:user-agent', text: 'claude-cli/1.0' }], settings.rules, settings.cache);
    expect(settings.cache.hasKey('claude-cli/1.0')).toBe(true);
    const disguised = `${SAMPLES.githubPat.slice(0, 5)}\u200B${SAMPLES.githubPat.slice(5)}`;
    expect(scanPlaces([{ place: 'query', text: disguised }], settings.rules, settings.cache).blocked?.rule).toBe('github_token');
  });
});

describe('paths', () => {
  it('decodePath decodes each run of escapes, whatever else is malformed', () => {
    expect(decodePath('/v1/files/%67hp_x%ZZ%41')).toBe('/v1/files/ghp_x%ZZA');
    expect(decodePath('/plain')).toBe('/plain');
  });

  it('urlCarriesSecret reads the path, query names and values, decoded', () => {
    expect(urlCarriesSecret(`/v1beta/models/fake/${SAMPLES.githubPat}:generateContent`)).toBe(true);
    expect(urlCarriesSecret(`/v1/chat/completions?${SAMPLES.awsKeyId}=1`)).toBe(true);
    expect(urlCarriesSecret(`/v1/chat/completions?k=%41${SAMPLES.awsKeyId.slice(1)}`)).toBe(true);
    expect(urlCarriesSecret('/v1/chat/completions?api-version=2024-10-21')).toBe(false);
  });

  it('pathToRecord drops the query and withholds a path that matches', () => {
    expect(pathToRecord('/v1/models?limit=1')).toBe('/v1/models');
    expect(pathToRecord(`/v1/files/${SAMPLES.githubPat}`)).toBe('(withheld: DLP matched the path)');
  });
});
