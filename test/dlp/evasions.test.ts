// The evasions an adversarial review found (the issue "One governed corridor"):
// each is a request that reached the provider with a secret in it.
import { describe, expect, it } from 'vitest';
import { resolveDlpSettings, type DlpScopeRecord } from '../../src/dlp/dlp-config.js';
import { scanRequestBody } from '../../src/dlp/scan-request.js';
import { walkStrings } from '../../src/dlp/walk-strings.js';
import { SAMPLES } from './samples.js';

const SECRET = SAMPLES.githubPat;
const rules = (records: DlpScopeRecord[] = []) => resolveDlpSettings(records, ['*']).rules;
const REDACT: DlpScopeRecord[] = [{ scope: '*', actions: { github_token: 'redact', aws_access_key: 'redact', private_key: 'redact' } }];

/** `text` cut at the given offsets. */
const cut = (text: string, ...at: number[]) => [0, ...at].map((from, index) => text.slice(from, [...at, text.length][index]));

describe('a secret split across three or more parts, or across messages', () => {
  it('three OpenAI content parts: found once, and redacted out of all three', () => {
    const [first, middle, last] = cut(SECRET, 10, 20);
    const body = { messages: [{ role: 'user', content: [{ type: 'text', text: `key ${first}` }, { type: 'text', text: middle }, { type: 'text', text: `${last} end` }] }] };
    expect(scanRequestBody(structuredClone(body), rules()).counts).toEqual({ github_token: 1 });
    const redacted = structuredClone(body);
    expect(scanRequestBody(redacted, rules(REDACT)).redacted).toBe(1);
    expect(redacted.messages[0]!.content.map((part) => part.text)).toEqual(['key [REDACTED:github_token]', '', ' end']);
  });

  it('eight parts of a few characters each', () => {
    const pieces = cut(SECRET, 4, 9, 14, 19, 24, 30, 35);
    const body = { contents: [{ role: 'user', parts: pieces.map((text) => ({ text })) }] };
    expect(scanRequestBody(body, rules()).counts).toEqual({ github_token: 1 });
  });

  it('OpenAI: messages[0].content ends with half a key, messages[1].content starts with the rest', () => {
    const [head, tail] = cut(SECRET, 20);
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: `my key is ${head}` }, { role: 'user', content: `${tail} thanks` }] };
    expect(scanRequestBody(structuredClone(body), rules()).blockedBy).toBe('github_token');
    const redacted = structuredClone(body);
    scanRequestBody(redacted, rules(REDACT));
    expect(redacted.messages.map((message) => message.content)).toEqual(['my key is [REDACTED:github_token]', ' thanks']);
  });

  it('Anthropic: the last content block of one message and the first of the next, a tool_use between them', () => {
    const [head, middle, tail] = cut(SECRET, 15, 30);
    const body = {
      model: 'claude', max_tokens: 10,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'text', text: head }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: { path: '/x' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: middle }] }, { type: 'text', text: `${tail}!` }] },
      ],
    };
    expect(scanRequestBody(body, rules()).counts).toEqual({ github_token: 1 });
  });

  it('GenAI: the parts of two consecutive contents', () => {
    const [head, tail] = cut(SAMPLES.google, 12);
    const body = { contents: [{ role: 'user', parts: [{ text: `key=${head}` }] }, { role: 'user', parts: [{ text: tail }] }] };
    expect(scanRequestBody(body, rules()).counts).toEqual({ google_api_key: 1 });
  });

  it('a part that ends with what is already a whole key, the key going on in the next part: one match, redacted whole', () => {
    const [head, tail] = cut(SAMPLES.anthropic, 45); // sk-ant-api03- and 32 characters: a key by itself
    const body = { messages: [{ role: 'user', content: `key ${head}` }, { role: 'user', content: `${tail} end` }] };
    expect(scanRequestBody(structuredClone(body), rules()).counts).toEqual({ anthropic_api_key: 1 });
    scanRequestBody(body, rules([{ scope: '*', actions: { anthropic_api_key: 'redact' } }]));
    expect(body.messages.map((message) => message.content)).toEqual(['key [REDACTED:anthropic_api_key]', ' end']);
  });

  it('texts that are not read one after the other are not joined (a tool schema beside a message)', () => {
    const [head, tail] = cut(SECRET, 20);
    const body = { tools: [{ name: 'f', description: head }], messages: [{ role: 'user', content: tail }] };
    expect(scanRequestBody(body, rules()).counts).toEqual({});
  });
});

describe('confusable letters', () => {
  it('a Cyrillic А (U+0410) in AKIA, a Greek Α (U+0391), a Cyrillic р in ghp_', () => {
    expect(scanRequestBody({ input: `\u0410${SAMPLES.awsKeyId.slice(1)}` }, rules()).counts).toEqual({ aws_access_key: 1 });
    expect(scanRequestBody({ input: `\u0391${SAMPLES.awsKeyId.slice(1)}` }, rules()).counts).toEqual({ aws_access_key: 1 });
    expect(scanRequestBody({ input: SECRET.replace('p', '\u0440') }, rules()).counts).toEqual({ github_token: 1 });
  });

  it('a redaction replaces the right span and leaves the other Cyrillic letters as they were', () => {
    const body = { input: `Привет, ключ: \u0410${SAMPLES.awsKeyId.slice(1)} — спасибо` };
    scanRequestBody(body, rules(REDACT));
    expect(body.input).toBe('Привет, ключ: [REDACTED:aws_access_key] — спасибо');
  });
});

describe('a prefix glued to a word', () => {
  it.each([
    ['aws_access_key', 'KEY_', SAMPLES.awsKeyId],
    ['github_token', 'token', SECRET],
    ['anthropic_api_key', 'apikey', SAMPLES.anthropic],
    ['openai_api_key', 'KEY', SAMPLES.openaiProject],
    ['google_api_key', 'g', SAMPLES.google],
    ['jwt', 'Bearer_', SAMPLES.jwt],
  ])('%s after %s', (id, word, secret) => {
    expect(scanRequestBody({ input: `${word}${secret}` }, rules()).counts).toEqual({ [id]: 1 });
  });
});

describe('a PEM block whose newlines are the two characters \\n', () => {
  const escaped = SAMPLES.privateKey.replace(/\n/g, '\\n');
  const cutOff = escaped.split('-----END')[0]!;
  it.each([
    ['cut off before its end line', cutOff],
    ['cut off, lines of 40', SAMPLES.privateKey.split('\n').map((line) => line.slice(0, 40)).join('\\n').split('-----END')[0]!],
    ['escaped twice (JSON in JSON)', SAMPLES.privateKey.replace(/\n/g, '\\\\n').split('-----END')[0]!],
    ['in a .env line', `PRIVATE_KEY="${cutOff}`],
  ])('%s', (_name, text) => {
    expect(scanRequestBody({ input: text }, rules()).counts).toEqual({ private_key: 1 });
  });
});

describe('depth', () => {
  const nested = (depth: number, leaf: unknown) => {
    let node: unknown = leaf;
    for (let level = 0; level < depth; level += 1) node = level % 2 === 0 ? { a: node } : [node];
    return node;
  };

  it.each([300, 100_000])('a string %i levels deep is scanned', (depth) => {
    const scan = scanRequestBody(nested(depth, { text: SECRET }), rules());
    expect(scan.counts).toEqual({ github_token: 1 });
  });

  it('a body parsed from 50,000 nested arrays walks without overflowing the stack', () => {
    const raw = `${'['.repeat(50_000)}"${SECRET}"${']'.repeat(50_000)}`;
    expect(walkStrings(JSON.parse(raw)).leaves.map((leaf) => leaf.value)).toEqual([SECRET]);
  });
});

describe('Anthropic documents', () => {
  it('a plain-text source is scanned', () => {
    const body = { messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: `notes\n${'lorem ipsum '.repeat(10)}\n${SECRET}` } }] }] };
    const scan = scanRequestBody(body, rules());
    expect(scan).toMatchObject({ blockedBy: 'github_token', binarySkipped: 0 });
  });

  it('a base64 source stays skipped and counted', () => {
    const data = Buffer.from(`${SECRET} `.repeat(4)).toString('base64');
    const body = { messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data } }] }] };
    expect(scanRequestBody(body, rules())).toMatchObject({ counts: {}, binarySkipped: 1 });
  });
});

describe('the cost of joints', () => {
  it('a run of 20,000 one-character parts is scanned about once, not a window per joint, and the secret in it is found', () => {
    let scanned = 0;
    const counting = { detector: { id: 'counting', category: 'custom' as const, description: 'counts what it reads', find: (text: string) => { scanned += text.length; return []; } }, action: 'log' as const };
    const text = `${'a'.repeat(10_000)} ${SECRET} ${'b'.repeat(10_000)}`;
    const body = { contents: [{ parts: [...text].map((character) => ({ text: character })) }] };
    const scan = scanRequestBody(body, [...rules(), counting]);
    expect(scan.counts).toEqual({ github_token: 1 });
    // Each part once alone, then the joined run once, and each key name (contents, parts, text) once.
    expect(scanned).toBeLessThanOrEqual(2 * text.length + 'contentspartstext'.length);
  });

  it('the next turn of a conversation does not rescan clean joints; a changed joint is scanned again', () => {
    let scanned = 0;
    const counting = { detector: { id: 'counting', category: 'custom' as const, description: 'counts what it reads', find: (text: string) => { scanned += text.length; return []; } }, action: 'log' as const };
    const { rules: active, cache } = resolveDlpSettings([], ['*']);
    const all = [...active, counting];
    const turn = (last: string) => ({ messages: [{ content: 'x'.repeat(3000) }, { content: 'y'.repeat(3000) }, { content: last }] });
    scanRequestBody(turn('z'.repeat(3000)), all, cache);
    scanned = 0;
    expect(scanRequestBody(turn('z'.repeat(3000)), all, cache).counts).toEqual({});
    expect(scanned).toBe(0);
    const [head, tail] = cut(SECRET, 20);
    const changed = { messages: [{ content: 'x'.repeat(3000) }, { content: `${'y'.repeat(2980)} ${head}` }, { content: `${tail} ${'z'.repeat(2999)}` }] };
    expect(scanRequestBody(changed, all, cache).counts).toEqual({ github_token: 1 });
  });
});
