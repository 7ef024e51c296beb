// The one reader of "which session is this" (affinity and the audit record) and of the agent,
// on the headers each client really sends (docs/sessions.md).
import { describe, expect, it } from 'vitest';
import { agentOf, readAgent } from '../../src/pipeline/decode/read-agent.js';
import { resolveDlpSettings, scopesFor } from '../../src/dlp/dlp-config.js';
import { readLineage } from '../../src/pipeline/decode/read-lineage.js';
import { readSession } from '../../src/pipeline/decode/read-session.js';
import { isSessionId } from '../../src/canonical/session-id.js';
import { SAMPLES } from '../dlp/samples.js';

describe('readSession', () => {
  it('reads each client\'s own header', () => {
    expect(readSession({ 'x-claude-code-session-id': 'a1b2' }).session).toBe('a1b2');
    expect(readSession({ 'session-id': 'codex-1', 'thread-id': 'other' }).session).toBe('codex-1');
    expect(readSession({ session_id: 'codex-old' }).session).toBe('codex-old');
    expect(readSession({ 'x-session-id': 'ses_1', 'x-session-affinity': 'ses_1' }).session).toBe('ses_1');
  });

  it('x-gw-session wins; Claude Code\'s body field is the last resort', () => {
    expect(readSession({ 'x-claude-code-session-id': 'a', 'x-gw-session': 'b' }).session).toBe('b');
    const body = { metadata: { user_id: JSON.stringify({ device_id: 'd', session_id: 'from-body' }) } };
    expect(readSession({}, body)).toEqual({ session: 'from-body', ignored: false, refusedBy: null });
    expect(readSession({}, { metadata: { user_id: 'user_abc' } }).session).toBeNull();
    expect(readSession({}, { metadata: { user_id: '{not json "session_id"' } }).session).toBeNull();
  });

  it('drops a value too long, with odd characters or that the built-in DLP rules take for a secret', () => {
    expect(readSession({ 'x-gw-session': 'x'.repeat(129) })).toEqual({ session: null, ignored: true, refusedBy: null });
    expect(readSession({ 'x-gw-session': 'x'.repeat(128) }).session).toBe('x'.repeat(128));
    expect(readSession({ 'x-gw-session': 'a b' })).toEqual({ session: null, ignored: true, refusedBy: null });
    expect(readSession({ 'x-gw-session': SAMPLES.githubPat })).toEqual({ session: null, ignored: true, refusedBy: null });
    // A bad x-gw-session does not hide the client's own good one.
    expect(readSession({ 'x-gw-session': 'a\nb', 'x-claude-code-session-id': 'good' })).toEqual({ session: 'good', ignored: true, refusedBy: null });
    expect(isSessionId('')).toBe(false);
  });
});

describe('readAgent', () => {
  it('normalizes the coding tools\' User-Agents', () => {
    expect(agentOf('claude-cli/2.1.197 (external, sdk-cli)')).toBe('claude-code/2.1.197');
    expect(agentOf('codex_exec/0.169.0 (Ubuntu 24.4.0; x86_64) xterm')).toBe('codex/0.169.0');
    expect(agentOf('GeminiCLI-tui/0.61.0/gemini-3.8-flash (linux; x64; terminal)')).toBe('gemini-cli/0.61.0');
    expect(agentOf('opencode/1.18.33 ai-sdk/provider-utils/4.x runtime/bun/1.3.14')).toBe('opencode/1.18.33');
    expect(agentOf('OpenAI/JS 6.49.0')).toBe('openai-js/6.49.0');
    expect(agentOf('Anthropic/JS 1.12.0')).toBe('anthropic-js/1.12.0');
  });

  it('takes the Google GenAI SDK from x-goog-api-client when the User-Agent is a runtime\'s', () => {
    expect(readAgent({ 'user-agent': 'node', 'x-goog-api-client': 'google-genai-sdk/2.32.0 gl-node/v22' })).toBe('google-genai/2.32.0');
    expect(readAgent({ 'user-agent': 'Bun/1.4.0', 'x-goog-api-client': 'google-genai-sdk/2.32.0' })).toBe('google-genai/2.32.0');
    expect(readAgent({ 'user-agent': 'GeminiCLI/0.61.0/m (linux)', 'x-goog-api-client': 'google-genai-sdk/1.30.0' })).toBe('gemini-cli/0.61.0');
  });

  it('nothing readable, nothing recorded', () => {
    expect(readAgent({})).toBeNull();
    expect(agentOf('Mozilla')).toBeNull();
    expect(agentOf(`x/${'1'.repeat(80)}`)).toBeNull();
    expect(agentOf('evil<script>/1.0')).toBeNull();
  });
});

it('readLineage: both, and whether a session header was dropped', () => {
  expect(readLineage({ 'x-claude-code-session-id': 's', 'user-agent': 'claude-cli/2.1.197 (external, cli)' }, undefined, null))
    .toEqual({ session: 's', agent: 'claude-code/2.1.197', warnings: [] });
  expect(readLineage({ 'x-gw-session': 'a b' }, undefined, null)).toEqual({ session: null, agent: null, warnings: ['session_id_ignored'] });
});

describe('lineage under the caller\'s own DLP rules (issue 36)', () => {
  const records = [{ scope: 'team:corp', custom: [{ id: 'corp_token', pattern: 'corptok-[a-z0-9]{20}', action: 'block' as const }] }];
  const corp = resolveDlpSettings(records, scopesFor('corp', null));
  const other = resolveDlpSettings(records, scopesFor('other', null));
  const token = 'corptok-abcdefghij0123456789';

  it('a session a team rule matches is dropped, naming the rule; another team\'s caller keeps it', () => {
    expect(readSession({ 'x-gw-session': token }, undefined, corp)).toEqual({ session: null, ignored: true, refusedBy: 'corp_token' });
    expect(readSession({ 'x-gw-session': token }, undefined, other).session).toBe(token);
    // The next source still counts: Claude Code's body field.
    const body = { metadata: { user_id: JSON.stringify({ device_id: 'd', session_id: 's-1' }) } };
    expect(readSession({ 'x-gw-session': token }, body, corp)).toEqual({ session: 's-1', ignored: true, refusedBy: 'corp_token' });
    const secretBody = { metadata: { user_id: JSON.stringify({ device_id: 'd', session_id: token }) } };
    expect(readSession({}, secretBody, corp)).toEqual({ session: null, ignored: true, refusedBy: 'corp_token' });
  });

  it('a built-in rule in the caller\'s set names itself', () => {
    expect(readSession({ 'x-gw-session': SAMPLES.githubPat }, undefined, other).refusedBy).toMatch(/github/);
  });

  it('readLineage: neither a refused session nor a refused agent is in the lineage, only the rules', () => {
    const lineage = readLineage({ 'x-gw-session': token, 'user-agent': `${token}/1.0` }, undefined, corp);
    expect(lineage).toEqual({ session: null, agent: null, warnings: ['session_id_ignored', 'session_id_refused: corp_token', 'agent_refused: corp_token'] });
    expect(JSON.stringify(lineage)).not.toContain(token);
    expect(readLineage({ 'x-gw-session': token, 'user-agent': `${token}/1.0` }, undefined, other)).toMatchObject({ session: token, agent: `${token}/1.0` });
  });
});
