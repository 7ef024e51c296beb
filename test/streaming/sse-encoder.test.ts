import { describe, expect, it } from 'vitest';
import { encodeSseComment, encodeSseEvent, encodeSseEventBytes } from '../../src/streaming/sse-encoder.js';

describe('encodeSseEvent', () => {
  it('writes a data-only event', () => {
    expect(encodeSseEvent({ data: '[DONE]' })).toBe('data: [DONE]\n\n');
  });

  it('writes event and id before data', () => {
    expect(encodeSseEvent({ event: 'ping', id: '3', data: '{"type":"ping"}' })).toBe('event: ping\nid: 3\ndata: {"type":"ping"}\n\n');
  });

  it('splits a multi-line payload into several data lines', () => {
    expect(encodeSseEvent({ data: 'a\nb\r\nc' })).toBe('data: a\ndata: b\ndata: c\n\n');
  });

  it('uses \\r\\n when asked (Gemini framing)', () => {
    expect(encodeSseEvent({ data: '{}' }, { lineEnding: '\r\n' })).toBe('data: {}\r\n\r\n');
  });

  it('writes retry', () => {
    expect(encodeSseEvent({ data: 'x', retry: 1000 })).toBe('retry: 1000\ndata: x\n\n');
  });

  it('refuses a line break inside event or id', () => {
    expect(() => encodeSseEvent({ event: 'a\ndata: forged', data: 'x' })).toThrow(RangeError);
    expect(() => encodeSseEvent({ id: '1\r2', data: 'x' })).toThrow(RangeError);
  });

  it('writes comments', () => {
    expect(encodeSseComment('keep-alive')).toBe(': keep-alive\n\n');
    expect(encodeSseComment()).toBe(':\n\n');
  });

  it('encodes to UTF-8 bytes', () => {
    expect(Buffer.from(encodeSseEventBytes({ data: 'é' })).toString('utf8')).toBe('data: é\n\n');
  });
});
