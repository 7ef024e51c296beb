import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SseDecoder, decodeSseStream, type SseEvent } from '../../src/streaming/sse-decoder.js';
import { LineDecoder } from '../../src/streaming/line-decoder.js';
import { SseDecodeError } from '../../src/streaming/sse-decode-error.js';
import { encodeSseEvent } from '../../src/streaming/sse-encoder.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function decodeChunks(chunks: Array<string | Uint8Array>): SseEvent[] {
  const decoder = new SseDecoder();
  const events: SseEvent[] = [];
  for (const chunk of chunks) events.push(...decoder.push(typeof chunk === 'string' ? bytes(chunk) : chunk));
  events.push(...decoder.end());
  return events;
}

function decodeLines(chunks: Array<string | Uint8Array>): string[] {
  const decoder = new LineDecoder();
  const lines: string[] = [];
  for (const chunk of chunks) lines.push(...decoder.push(typeof chunk === 'string' ? bytes(chunk) : chunk));
  lines.push(...decoder.end());
  return lines;
}

describe('LineDecoder', () => {
  it('splits on \\n', () => {
    expect(decodeLines(['a\nb\n'])).toEqual(['a', 'b']);
  });

  it('splits on \\r\\n', () => {
    expect(decodeLines(['a\r\nb\r\n'])).toEqual(['a', 'b']);
  });

  it('splits on a lone \\r', () => {
    expect(decodeLines(['a\rb\r'])).toEqual(['a', 'b']);
  });

  it('treats a \\r\\n split across chunks as one line end', () => {
    expect(decodeLines(['a\r', '\nb\r\n'])).toEqual(['a', 'b']);
  });

  it('keeps a \\r at a chunk end followed by an empty chunk and then \\n as one line end', () => {
    expect(decodeLines(['a\r', '', '\nb\n'])).toEqual(['a', 'b']);
  });

  it('keeps a blank line after \\r\\r', () => {
    expect(decodeLines(['a\r', '\rb'])).toEqual(['a', '', 'b']);
  });

  it('joins a multi-byte UTF-8 character split across chunks', () => {
    const all = bytes('héllo 🙂\n');
    const cut = all.indexOf(0x9f); // inside the 4-byte emoji
    expect(decodeLines([all.slice(0, 2), all.slice(2, cut), all.slice(cut)])).toEqual(['héllo 🙂']);
  });

  it('returns a last line without a line end at end()', () => {
    expect(decodeLines(['a\nb'])).toEqual(['a', 'b']);
  });

  it('drops a leading byte order mark', () => {
    expect(decodeLines([new Uint8Array([0xef, 0xbb, 0xbf]), 'data: x\n'])).toEqual(['data: x']);
  });

  it('fails when a line grows past the cap', () => {
    const decoder = new LineDecoder({ maxLineLength: 8 });
    expect(decoder.push(bytes('12345'))).toEqual([]);
    expect(() => decoder.push(bytes('67890'))).toThrow(SseDecodeError);
  });

  it('fails when a complete line inside one chunk is over the cap', () => {
    const decoder = new LineDecoder({ maxLineLength: 4 });
    expect(() => decoder.push(bytes('123456789\n'))).toThrowError(/longer than 4/);
  });
});

describe('SseDecoder', () => {
  it('decodes data-only events (OpenAI chat framing)', () => {
    expect(decodeChunks(['data: {"a":1}\n\ndata: [DONE]\n\n'])).toEqual([{ data: '{"a":1}' }, { data: '[DONE]' }]);
  });

  it('decodes event: and data: (Anthropic framing)', () => {
    const events = decodeChunks(['event: ping\ndata: {"type":"ping"}\n\n']);
    expect(events).toEqual([{ event: 'ping', data: '{"type":"ping"}' }]);
  });

  it('decodes \\r\\n\\r\\n-separated events (Gemini framing)', () => {
    expect(decodeChunks(['data: {"x":1}\r\n\r\ndata: {"x":2}\r\n\r\n'])).toEqual([{ data: '{"x":1}' }, { data: '{"x":2}' }]);
  });

  it('decodes \\r-only separated events', () => {
    expect(decodeChunks(['data: a\r\rdata: b\r\r'])).toEqual([{ data: 'a' }, { data: 'b' }]);
  });

  it('decodes an event whose \\r\\n is split across chunks', () => {
    expect(decodeChunks(['data: a\r', '\n\r', '\ndata: b\r\n\r\n'])).toEqual([{ data: 'a' }, { data: 'b' }]);
  });

  it('ignores comments', () => {
    expect(decodeChunks([': keep-alive\n\n:\ndata: x\n\n'])).toEqual([{ data: 'x' }]);
  });

  it('joins multi-line data with \\n', () => {
    expect(decodeChunks(['data: one\ndata: two\ndata:\n\n'])).toEqual([{ data: 'one\ntwo\n' }]);
  });

  it('removes only one leading space from a value', () => {
    expect(decodeChunks(['data:  two spaces\ndata:none\n\n'])).toEqual([{ data: ' two spaces\nnone' }]);
  });

  it('reads id: and retry:', () => {
    expect(decodeChunks(['id: 7\nretry: 1500\ndata: x\n\n'])).toEqual([{ id: '7', retry: 1500, data: 'x' }]);
  });

  it('ignores a retry: that is not all digits and an id with NUL', () => {
    expect(decodeChunks(['id: a\u0000b\nretry: 1.5\ndata: x\n\n'])).toEqual([{ data: 'x' }]);
  });

  it('treats a field without a colon as a field with an empty value', () => {
    expect(decodeChunks(['data\ndata\n\n'])).toEqual([{ data: '\n' }]);
  });

  it('ignores unknown fields', () => {
    expect(decodeChunks(['foo: bar\ndata: x\n\n'])).toEqual([{ data: 'x' }]);
  });

  it('does not dispatch a block with neither data nor event', () => {
    expect(decodeChunks(['id: 1\n\n\n\ndata: x\n\n'])).toEqual([{ data: 'x' }]);
  });

  it('dispatches a final event without a trailing blank line at end of stream', () => {
    const decoder = new SseDecoder();
    expect(decoder.push(bytes('event: message_stop\ndata: {"type":"message_stop"}'))).toEqual([]);
    expect(decoder.end()).toEqual([{ event: 'message_stop', data: '{"type":"message_stop"}' }]);
  });

  it('dispatches a final event whose last line ended but had no blank line', () => {
    expect(decodeChunks(['data: a\n'])).toEqual([{ data: 'a' }]);
  });

  it('returns events only once their blank line arrives', () => {
    const decoder = new SseDecoder();
    expect(decoder.push(bytes('data: a\n'))).toEqual([]);
    expect(decoder.push(bytes('\n'))).toEqual([{ data: 'a' }]);
  });

  it('decodes a multi-byte character split across chunks inside data', () => {
    const all = bytes('data: 日本\n\n');
    expect(decodeChunks([all.slice(0, 8), all.slice(8)])).toEqual([{ data: '日本' }]);
  });

  it('fails when an event grows past the size cap', () => {
    const decoder = new SseDecoder({ maxEventSize: 10 });
    decoder.push(bytes('data: 12345\n'));
    expect(() => decoder.push(bytes('data: 67890\n'))).toThrow(expect.objectContaining({ code: 'GW_SSE_EVENT_TOO_LARGE' }));
  });

  it('fails when a line grows past the line cap', () => {
    const decoder = new SseDecoder({ maxLineLength: 10 });
    expect(() => decoder.push(bytes('data: 0123456789'))).toThrow(expect.objectContaining({ code: 'GW_SSE_LINE_TOO_LONG' }));
  });

  it('decodeSseStream yields events from an async iterable', async () => {
    async function* source(): AsyncGenerator<Uint8Array> {
      yield bytes('event: a\nda');
      yield bytes('ta: 1\n\ndata: 2');
    }
    const events: SseEvent[] = [];
    for await (const event of decodeSseStream(source())) events.push(event);
    expect(events).toEqual([{ event: 'a', data: '1' }, { data: '2' }]);
  });

  it('decodes the same events however the bytes are cut (property)', () => {
    const eventArbitrary = fc.record({
      event: fc.option(fc.stringMatching(/^[a-z_.]{1,12}$/), { nil: undefined }),
      data: fc.string({ unit: 'grapheme', maxLength: 40 }).map((text) => text.replace(/\r\n?/g, '\n')),
    });
    fc.assert(
      fc.property(fc.array(eventArbitrary, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (events, cuts, crlf) => {
        const text = events.map((event) => encodeSseEvent(event, { lineEnding: crlf ? '\r\n' : '\n' })).join('');
        const all = bytes(text);
        const points = [...new Set(cuts.map((cut) => (all.length === 0 ? 0 : cut % all.length)))].sort((a, b) => a - b);
        const chunks: Uint8Array[] = [];
        let start = 0;
        for (const point of points) { chunks.push(all.slice(start, point)); start = point; }
        chunks.push(all.slice(start));
        const expected = events.map((event) => (event.event === undefined ? { data: event.data } : { event: event.event, data: event.data }));
        expect(decodeChunks(chunks)).toEqual(expected);
      }),
    );
  });
});
