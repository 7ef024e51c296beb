// The realtime event checks on their own: what a client event becomes under each DLP
// action (held back, redacted, passed), base64 audio left unscanned, and the provider
// side's split-delta output scan and usage sums.
import { describe, expect, it } from 'vitest';
import { resolveDlpSettings, type DlpScopeRecord } from '../../src/dlp/dlp-config.js';
import { newRealtimeDlpTally, scanClientEvent } from '../../src/pipeline/realtime/scan-realtime-event.js';
import { createRealtimeOutputWatcher } from '../../src/pipeline/realtime/watch-realtime-output.js';
import { SAMPLES } from '../dlp/samples.js';

const SECRET = SAMPLES.githubPat;
const settings = (records: DlpScopeRecord[] = []) => resolveDlpSettings(records, ['*']);
const eventId = () => 'event_gw_1';
const item = (text: string) => JSON.stringify({ type: 'conversation.item.create', event_id: 'evt_7', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } });

describe('scanClientEvent', () => {
  it('holds back an event with a secret and answers with a realtime error naming the client event', () => {
    const tally = newRealtimeDlpTally();
    const verdict = scanClientEvent(item(`key ${SECRET}`), settings(), tally, eventId);
    expect(verdict.action).toBe('refuse');
    const reply = JSON.parse((verdict as { reply: string }).reply) as Record<string, unknown>;
    expect(reply).toMatchObject({ type: 'error', event_id: 'event_gw_1', error: { type: 'invalid_request_error', code: 'dlp_blocked', event_id: 'evt_7' } });
    expect(JSON.stringify(reply)).not.toContain(SECRET);
    expect(tally).toMatchObject({ counts: { github_token: 1 }, blockedEvents: 1 });
  });

  it('redacts in place and forwards the re-serialised event; a clean event goes as its own bytes', () => {
    const tally = newRealtimeDlpTally();
    const redacting = settings([{ scope: '*', actions: { github_token: 'redact' } }]);
    const verdict = scanClientEvent(JSON.stringify({ type: 'session.update', session: { instructions: `use ${SECRET}` } }), redacting, tally, eventId);
    expect(verdict.action).toBe('forward');
    const data = (verdict as { data: string | null }).data!;
    expect(data).not.toContain(SECRET);
    expect(JSON.parse(data)).toMatchObject({ type: 'session.update', session: { instructions: expect.stringContaining('use ') } });
    expect(tally.redactedEvents).toBe(1);
    expect(scanClientEvent(item('hello'), redacting, tally, eventId)).toEqual({ action: 'forward', data: null });
  });

  it('a duplicate key is forwarded as the scanned object, so the provider cannot read an unscanned copy', () => {
    const raw = `{"type":"response.create","response":{"instructions":"${SECRET}","instructions":"fine"}}`;
    const verdict = scanClientEvent(raw, settings(), newRealtimeDlpTally(), eventId);
    expect(verdict).toEqual({ action: 'forward', data: JSON.stringify({ type: 'response.create', response: { instructions: 'fine' } }) });
  });

  it('leaves base64 audio unscanned and unchanged, counting it, while the rest of the event is scanned', () => {
    const tally = newRealtimeDlpTally();
    const audio = Buffer.alloc(300, 7).toString('base64');
    const append = JSON.stringify({ type: 'input_audio_buffer.append', audio });
    expect(scanClientEvent(append, settings(), tally, eventId)).toEqual({ action: 'forward', data: null });
    expect(tally.unscanned).toBe(1);
    const mixed = JSON.stringify({ type: 'conversation.item.create', item: { content: [{ type: 'input_audio', audio }, { type: 'input_text', text: SECRET }] } });
    expect(scanClientEvent(mixed, settings(), tally, eventId).action).toBe('refuse');
  });

  it('scans a text frame that is not JSON as text', () => {
    expect(scanClientEvent(`not json ${SECRET}`, settings(), newRealtimeDlpTally(), eventId).action).toBe('refuse');
  });
});

describe('createRealtimeOutputWatcher', () => {
  const delta = (text: string) => JSON.stringify({ type: 'response.output_text.delta', delta: text });
  const done = (total: number) => JSON.stringify({ type: 'response.done', response: { usage: { total_tokens: total, input_tokens: total - 2, output_tokens: 2 } } });

  it('stops on a secret split across two deltas when output scanning is on', () => {
    const tally = newRealtimeDlpTally();
    const watcher = createRealtimeOutputWatcher({ ...settings(), outputScan: true }, tally, eventId);
    expect(watcher.inspect(delta(SECRET.slice(0, 10)))).toEqual({ action: 'forward' });
    const verdict = watcher.inspect(delta(SECRET.slice(10)));
    expect(verdict).toMatchObject({ action: 'stop', ruleId: 'github_token' });
    expect(tally.counts).toEqual({ 'output.github_token': 1 });
  });

  it('passes output unscanned when output scanning is off, and sums response.done usage either way', () => {
    const watcher = createRealtimeOutputWatcher(settings(), newRealtimeDlpTally(), eventId);
    expect(watcher.inspect(delta(SECRET))).toEqual({ action: 'forward' });
    expect(watcher.tokens()).toBeNull();
    watcher.inspect(done(10));
    watcher.inspect(done(5));
    expect(watcher.tokens()).toEqual({ input: 11, output: 4, total: 15 });
  });
});
