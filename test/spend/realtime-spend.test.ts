// A realtime session's usage when a response was cut before its response.done
// (src/pipeline/realtime/realtime-spend.ts), with the real o200k tokenizer.
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { RealtimeSpend } from '../../src/pipeline/realtime/realtime-spend.js';

const event = (value: unknown) => JSON.stringify(value);
const audio = (bytes: number) => Buffer.alloc(bytes, 1).toString('base64');

describe('RealtimeSpend', () => {
  it('a session whose responses all finished keeps the reported usage, not flagged', () => {
    const spend = new RealtimeSpend();
    spend.providerEvent(event({ type: 'response.created', response: { id: 'r1' } }));
    spend.providerEvent(event({ type: 'response.output_text.delta', delta: 'hello' }));
    spend.providerEvent(event({ type: 'response.done', response: { usage: { input_tokens: 20, output_tokens: 2, total_tokens: 22 } } }));
    expect(spend.cut).toBe(false);
    expect(spend.usage({ input: 20, output: 2, total: 22 }, countTokens)).toEqual({ tokens: { input: 20, output: 2, total: 22 }, estimated: false });
  });

  it('a cut response adds its relayed text and audio and the context it ran on, flagged', () => {
    const spend = new RealtimeSpend();
    spend.clientEvent(event({ type: 'conversation.item.create', item: { content: [{ type: 'input_text', text: 'count to three' }] } }));
    spend.clientEvent(event({ type: 'input_audio_buffer.append', audio: audio(48_000) }));
    spend.providerEvent(event({ type: 'response.done', response: { usage: { input_tokens: 30, output_tokens: 5 } } }));
    spend.providerEvent(event({ type: 'response.created', response: { id: 'r2' } }));
    spend.providerEvent(event({ type: 'response.output_audio_transcript.delta', delta: 'one, two' }));
    spend.providerEvent(event({ type: 'response.output_audio.delta', delta: audio(4_800) }));
    // An input transcription's delta is not the response's output.
    spend.providerEvent(event({ type: 'conversation.item.input_audio_transcription.delta', delta: 'count to three' }));
    expect(spend.cut).toBe(true);
    const usage = spend.usage({ input: 30, output: 5, total: 35 }, countTokens)!;
    expect(usage.estimated).toBe(true);
    // Input: at least the 35-token context of the last response, on top of the 30 reported.
    expect(usage.tokens.input).toBeGreaterThanOrEqual(30 + 35);
    // Output: the transcript's tokens and 100 ms of pcm16 at a token per 50 ms, on top of the 5 reported.
    expect(usage.tokens.output).toBeGreaterThanOrEqual(5 + countTokens('one, two') + 2);
    expect(usage.tokens.audio_input).toBeGreaterThanOrEqual(10);
    expect(usage.tokens.audio_output).toBeGreaterThanOrEqual(2);
    expect(usage.tokens.total).toBe((usage.tokens.input ?? 0) + (usage.tokens.output ?? 0));
  });

  it('counts G.711 audio at 8,000 bytes a second once session.update names it', () => {
    const spend = new RealtimeSpend();
    spend.clientEvent(event({ type: 'session.update', session: { input_audio_format: 'g711_ulaw', output_audio_format: 'g711_ulaw' } }));
    spend.clientEvent(event({ type: 'input_audio_buffer.append', audio: audio(8_000) }));
    spend.providerEvent(event({ type: 'response.output_audio.delta', delta: audio(8_000) }));
    const usage = spend.usage(null, countTokens)!;
    expect(usage.tokens.audio_input).toBeGreaterThanOrEqual(10);
    expect(usage.tokens.audio_output).toBeGreaterThanOrEqual(20);
  });
});
