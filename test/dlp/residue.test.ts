// The DLP residue issue 26 lists: plain text dressed as a base64 payload, an AWS key id
// (or another key) followed directly by a letter, and a PEM header in lower case. Each
// reached a provider; the binary payloads that really are base64 stay skipped.
import { describe, expect, it } from 'vitest';
import { resolveDlpSettings } from '../../src/dlp/dlp-config.js';
import { scanRequestBody } from '../../src/dlp/scan-request.js';
import { SAMPLES } from './samples.js';

const rules = () => resolveDlpSettings([], ['*']).rules;
const pad = (text: string) => `${text} ${'plain words follow here '.repeat(4)}`;

describe('a payload that claims to be base64 is skipped only when it is', () => {
  it.each([
    ['a data: URL holding plain text', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${pad(`my key is ${SAMPLES.githubPat}`)}` } }] }] }],
    ['input_audio.data holding plain text', { messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: pad(`token ${SAMPLES.githubPat}`), format: 'wav' } }] }] }],
    ['an Anthropic base64 source holding plain text', { messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: pad(SAMPLES.githubPat) } }] }] }],
    ['a GenAI inline_data holding plain text', { contents: [{ parts: [{ inline_data: { mime_type: 'image/png', data: pad(SAMPLES.githubPat) } }] }] }],
  ])('%s is scanned', (_name, body) => {
    expect(scanRequestBody(body, rules())).toMatchObject({ blockedBy: 'github_token', binarySkipped: 0 });
  });

  it.each([
    ['standard base64', Buffer.from(`${SAMPLES.githubPat} `.repeat(8)).toString('base64')],
    ['URL-safe base64 without padding', Buffer.from(`${SAMPLES.githubPat}?>`.repeat(8)).toString('base64url').replace(/=+$/, '')],
  ])('real %s stays skipped (no false positive, no CPU)', (_name, data) => {
    const body = { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } }, { type: 'input_audio', input_audio: { data, format: 'wav' } }] }] };
    expect(scanRequestBody(body, rules())).toMatchObject({ counts: {}, binarySkipped: 2 });
  });

  it('base64 with a length no encoder produces is not base64', () => {
    const data = `${Buffer.from('x'.repeat(60)).toString('base64').replace(/=+$/, '')}A`;
    expect(data.length % 4).toBe(1);
    expect(scanRequestBody({ input_audio: { data, format: 'wav' } }, rules()).binarySkipped).toBe(0);
  });
});

describe('a key followed directly by a letter or an underscore', () => {
  it.each([
    ['AWS key id then a word', `${SAMPLES.awsKeyId}and more`, 'aws_access_key'],
    ['AWS key id then a capital', `${SAMPLES.awsKeyId}X`, 'aws_access_key'],
    ['GitHub token then _old', `${SAMPLES.githubPat}_old`, 'github_token'],
    ['Stripe key then _x', `${SAMPLES.stripeLive}_x`, 'stripe_key'],
    ['gw key then _x', `${SAMPLES.gwKey}_x`, 'gw_virtual_key'],
  ])('%s', (_name, text, rule) => {
    expect(scanRequestBody({ input: text }, rules()).blockedBy).toBe(rule);
  });
});

describe('a PEM private key in any case', () => {
  it.each([
    ['lower case', SAMPLES.privateKey.toLowerCase()],
    ['lower-case header, body cut off', SAMPLES.privateKey.replace('-----BEGIN RSA PRIVATE KEY-----', '-----begin rsa private key-----').split('-----END')[0]!],
    ['mixed case', SAMPLES.privateKey.replace('BEGIN RSA PRIVATE KEY', 'Begin Rsa Private Key')],
  ])('%s', (_name, text) => {
    expect(scanRequestBody({ input: text }, rules()).blockedBy).toBe('private_key');
  });
});

describe('base64 declared as text is decoded and scanned', () => {
  const encoded = Buffer.from(`API_KEY=${SAMPLES.githubPat}\nDEBUG=1\n${'# padding line\n'.repeat(4)}`).toString('base64');
  it.each([
    ['a data: URL of text/plain', { messages: [{ role: 'user', content: [{ type: 'file', file: { filename: '.env', file_data: `data:text/plain;base64,${encoded}` } }] }] }],
    ['an Anthropic base64 source of application/json', { messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/json', data: encoded } }] }] }],
    ['URL-safe base64 of text/x-shellscript', { input: [{ type: 'input_file', file_data: `data:text/x-shellscript;base64,${Buffer.from(`export T=${SAMPLES.githubPat}`).toString('base64url')}` }] }],
  ])('%s', (_name, body) => {
    expect(scanRequestBody(body, rules())).toMatchObject({ blockedBy: 'github_token', binarySkipped: 0 });
  });

  it('a redact rule refuses it (the payload is not rewritten)', () => {
    const redacting = resolveDlpSettings([{ scope: '*', actions: { github_token: 'redact' } }], ['*']).rules;
    expect(scanRequestBody({ url: `data:text/plain;base64,${encoded}` }, redacting).blockedBy).toBe('github_token');
  });

  it('base64 declared as an image or a PDF stays skipped', () => {
    const body = { a: `data:image/png;base64,${encoded}`, b: { type: 'base64', media_type: 'application/pdf', data: encoded } };
    expect(scanRequestBody(body, rules())).toMatchObject({ counts: {}, binarySkipped: 2 });
  });
});
