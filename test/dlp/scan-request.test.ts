// The request scan in every dialect: the same secret is found wherever the
// dialect carries it, each action does what it says, and the scanned object is
// what would be forwarded.
import { describe, expect, it } from 'vitest';
import { createDlpResolver, resolveDlpSettings, type DlpScopeRecord } from '../../src/dlp/dlp-config.js';
import { scanRequestBody } from '../../src/dlp/scan-request.js';
import { createStreamTextScanner } from '../../src/dlp/scan-stream-text.js';
import { SAMPLES } from './samples.js';

const SECRET = SAMPLES.githubPat;
const rules = (records: DlpScopeRecord[] = []) => resolveDlpSettings(records, ['*', 'team:t', 'key:vk_1']).rules;
const REDACT_ALL: DlpScopeRecord[] = [{ scope: '*', actions: { github_token: 'redact', email: 'redact', aws_access_key: 'redact' } }];

const DIALECT_BODIES: Record<string, () => Record<string, unknown>> = {
  'OpenAI chat message': () => ({ model: 'gpt-4o', messages: [{ role: 'user', content: `my token is ${SECRET}` }] }),
  'OpenAI content part': () => ({ model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: SECRET }] }] }),
  'Anthropic tool result': () => ({
    model: 'claude', max_tokens: 10,
    messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: `.env:\nGITHUB_TOKEN=${SECRET}\n` }] }] }],
  }),
  'Anthropic system': () => ({ model: 'claude', system: [{ type: 'text', text: SECRET }], messages: [] }),
  'GenAI part': () => ({ contents: [{ role: 'user', parts: [{ text: `see ${SECRET}` }] }] }),
  'Responses input item': () => ({ model: 'gpt-4o', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: SECRET }] }] }),
  'Responses function output': () => ({ model: 'gpt-4o', input: [{ type: 'function_call_output', call_id: 'c', output: `{"token":"${SECRET}"}` }] }),
  'tool definition': () => ({ model: 'gpt-4o', tools: [{ type: 'function', function: { name: 'f', description: SECRET, parameters: { type: 'object' } } }] }),
  'tool call arguments': () => ({ model: 'gpt-4o', messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: JSON.stringify({ t: SECRET }) } }] }] }),
};

describe('the same secret is caught in every dialect', () => {
  it.each(Object.keys(DIALECT_BODIES))('%s: blocked by default', (name) => {
    const scan = scanRequestBody(DIALECT_BODIES[name]!(), rules());
    expect(scan.blockedBy).toBe('github_token');
    expect(scan.counts).toEqual({ github_token: 1 });
  });

  it.each(Object.keys(DIALECT_BODIES))('%s: redacted in the object that is forwarded', (name) => {
    const body = DIALECT_BODIES[name]!();
    const scan = scanRequestBody(body, rules(REDACT_ALL));
    expect(scan.blockedBy).toBeNull();
    expect(scan.redacted).toBe(1);
    const sent = JSON.stringify(body);
    expect(sent).not.toContain(SECRET);
    expect(sent).toContain('[REDACTED:github_token]');
  });
});

describe('actions', () => {
  it('log counts and changes nothing; PII is logged by default', () => {
    const body = { messages: [{ role: 'user', content: `mail ${SAMPLES.email} or ${SAMPLES.email}` }] };
    const before = JSON.stringify(body);
    const scan = scanRequestBody(body, rules());
    expect(scan).toMatchObject({ blockedBy: null, redacted: 0, counts: { email: 2 }, actions: { email: 'log' } });
    expect(JSON.stringify(body)).toBe(before);
  });

  it('off turns a rule off; the key scope wins over the team and *', () => {
    const records: DlpScopeRecord[] = [
      { scope: '*', actions: { github_token: 'off' } },
      { scope: 'team:t', actions: { github_token: 'redact' } },
      { scope: 'key:vk_1', actions: { github_token: 'log' } },
    ];
    const scan = scanRequestBody({ input: SECRET }, rules(records));
    expect(scan.actions).toEqual({ github_token: 'log' });
    expect(scanRequestBody({ input: SECRET }, resolveDlpSettings(records, ['*']).rules).counts).toEqual({});
  });

  it('custom rules run on re2js, with their own action', () => {
    const records: DlpScopeRecord[] = [{ scope: '*', custom: [{ id: 'project_code', pattern: 'PRJ-[0-9]{4}', action: 'redact' }] }];
    const body = { messages: [{ role: 'user', content: 'about PRJ-1234 and PRJ-99' }] };
    const scan = scanRequestBody(body, rules(records));
    expect(scan.counts).toEqual({ project_code: 1 });
    expect(body.messages[0]!.content).toBe('about [REDACTED:project_code] and PRJ-99');
  });

  it('a catastrophic admin pattern stays linear', () => {
    const records: DlpScopeRecord[] = [{ scope: '*', custom: [{ id: 'evil', pattern: '(a+)+$', action: 'log' }] }];
    const started = performance.now();
    scanRequestBody({ input: `${'a'.repeat(100_000)}!` }, rules(records));
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('an invalid admin pattern names its rule', () => {
    expect(() => rules([{ scope: '*', custom: [{ id: 'bad', pattern: '(?<=x)y', action: 'log' }] }])).toThrow(/bad/);
  });
});

describe('evasions', () => {
  it('zero-width characters and full-width look-alikes are normalised away', () => {
    const split = `${SECRET.slice(0, 10)}\u200B${SECRET.slice(10)}`;
    expect(scanRequestBody({ input: split }, rules()).blockedBy).toBe('github_token');
    const wide = [...SAMPLES.awsKeyId].map((character) => String.fromCharCode(character.charCodeAt(0) + 0xfee0)).join('');
    expect(scanRequestBody({ input: wide }, rules()).blockedBy).toBe('aws_access_key');
  });

  it('a secret split across two adjacent text parts is found on the joint, and redacted on both sides', () => {
    const body = { messages: [{ role: 'user', content: [{ type: 'text', text: `start ${SECRET.slice(0, 20)}` }, { type: 'text', text: `${SECRET.slice(20)} end` }] }] };
    expect(scanRequestBody(structuredClone(body), rules()).blockedBy).toBe('github_token');
    const redacted = structuredClone(body);
    scanRequestBody(redacted, rules(REDACT_ALL));
    expect(redacted.messages[0]!.content.map((part) => part.text)).toEqual(['start [REDACTED:github_token]', ' end']);
  });

  it('GenAI parts split across two parts', () => {
    const body = { contents: [{ parts: [{ text: SECRET.slice(0, 12) }, { text: SECRET.slice(12) }] }] };
    expect(scanRequestBody(body, rules()).counts).toEqual({ github_token: 1 });
  });
});

describe('binary fields are skipped by design, and counted', () => {
  const base64 = Buffer.from(`${SECRET} `.repeat(20)).toString('base64');
  it.each([
    ['Anthropic image', { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64 } }] }] }],
    ['GenAI inlineData', { contents: [{ parts: [{ inlineData: { mimeType: 'image/png', data: base64 } }] }] }],
    ['OpenAI image_url data URL', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${base64}` } }] }] }],
    ['Responses input_image', { input: [{ type: 'message', role: 'user', content: [{ type: 'input_image', image_url: `data:image/jpeg;base64,${base64}` }] }] }],
  ])('%s', (_name, body) => {
    const scan = scanRequestBody(body, rules());
    expect(scan.binarySkipped).toBe(1);
    expect(scan.counts).toEqual({});
  });
});

describe('stream output', () => {
  it('a secret split across deltas is reported once, when its end arrives', () => {
    const scanner = createStreamTextScanner(rules());
    expect(scanner.push(`here: ${SECRET.slice(0, 15)}`)).toEqual([]);
    const found = scanner.push(`${SECRET.slice(15)} done`);
    expect(found.map((match) => match.rule.detector.id)).toEqual(['github_token']);
    expect(scanner.push(' more text')).toEqual([]);
  });

  it('the look-behind is bounded', () => {
    const scanner = createStreamTextScanner(rules(), 64);
    for (let index = 0; index < 1000; index += 1) scanner.push('lorem ipsum dolor sit amet ');
    expect(scanner.push(SECRET).length).toBe(1);
  });
});

describe('duplicate keys', () => {
  it('raw bytes with a nested duplicate key hold more keys than the parsed object', async () => {
    const { countRawKeys } = await import('../../src/dlp/count-json-keys.js');
    const clean = '{"model":"m","messages":[{"role":"user","content":"say \\"a\\": b"}]}';
    const parsedClean = JSON.parse(clean) as unknown;
    expect(countRawKeys(Buffer.from(clean))).toBe(scanRequestBody(parsedClean, rules()).objectKeys);
    const smuggled = `{"model":"m","messages":[{"role":"user","content":"${SECRET}","content":"hello"}]}`;
    const parsed = JSON.parse(smuggled) as unknown;
    const scan = scanRequestBody(parsed, rules());
    expect(scan.counts).toEqual({});
    expect(countRawKeys(Buffer.from(smuggled))).toBeGreaterThan(scan.objectKeys);
  });
});

describe('the DLP resolver', () => {
  it('keeps one rule set, and so one clean-text cache, per identity while the records stay the same, an empty list included', () => {
    const resolver = createDlpResolver();
    const first = resolver.resolve([], 'eng', 'vk_1');
    // A state with no DLP records hands a new empty list each time (state.dlp ?? []).
    expect(resolver.resolve([], 'eng', 'vk_1')).toBe(first);
    const text = `${'clean words '.repeat(300)}`;
    scanRequestBody({ messages: [{ role: 'user', content: text }] }, first.rules, first.cache);
    expect(resolver.resolve([], 'eng', 'vk_1').cache.has(text)).toBe(true);
    const records: DlpScopeRecord[] = [{ scope: '*', actions: { email: 'block' } }];
    const changed = resolver.resolve(records, 'eng', 'vk_1');
    expect(changed).not.toBe(first);
    expect(resolver.resolve(records, 'eng', 'vk_1')).toBe(changed);
    expect(resolver.resolve(records, 'ops', null)).not.toBe(changed);
  });
});
