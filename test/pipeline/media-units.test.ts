// How a media call's units are counted from OpenAI's wire: images from the answer's data (else
// the request's n), seconds of audio from whisper's usage or verbose_json's duration, characters
// from the speech request's input; and the form fields read off a multipart upload on its way.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { countCharacters, countMediaUsage, expectedMediaUnits, mediaUnitOf } from '../../src/pipeline/plan/media-units.js';
import { tapFormFields } from '../../src/pipeline/plan/read-form-fields.js';

describe('images', () => {
  it('counts the answer\'s data, over the n asked for', () => {
    const answer = { created: 1, data: [{ url: 'a' }, { url: 'b' }, { url: 'c' }] };
    expect(countMediaUsage('images', { n: 2 }, answer, null)).toEqual({ tokens: { images: 3 }, image: null });
  });

  it('without data, the form\'s n (a string) or the API\'s default of 1', () => {
    expect(countMediaUsage('images', { n: '2' }, { created: 1 }, null).tokens).toEqual({ images: 2 });
    expect(countMediaUsage('images', {}, undefined, null).tokens).toEqual({ images: 1 });
  });

  it('size and quality from the answer (gpt-image-1 echoes them), else the request; tokens kept beside', () => {
    const answer = { data: [{ b64_json: 'x' }], size: '1536x1024', quality: 'high', usage: { input_tokens: 50, output_tokens: 100 } };
    const usage = countMediaUsage('images', { size: '1024x1024', quality: 'low' }, answer, { input: 50, output: 100 });
    expect(usage).toEqual({ tokens: { input: 50, output: 100, images: 1 }, image: { size: '1536x1024', quality: 'high' } });
    expect(countMediaUsage('images', { size: '1024x1792', quality: 'hd' }, { data: [{}] }, null).image).toEqual({ size: '1024x1792', quality: 'hd' });
  });

  it('an edit\'s image input tokens (input_tokens_details.image_tokens) are kept apart, as part of input', () => {
    const answer = { data: [{ b64_json: 'x' }], usage: { input_tokens: 1_000, input_tokens_details: { text_tokens: 200, image_tokens: 800 }, output_tokens: 100 } };
    expect(countMediaUsage('images', {}, answer, { input: 1_000, output: 100 }).tokens).toEqual({ input: 1_000, output: 100, image_input: 800, images: 1 });
  });
});

describe('audio heard', () => {
  it('whisper\'s usage {type: duration, seconds}', () => {
    expect(countMediaUsage('audio_seconds', {}, { text: 'hi', usage: { type: 'duration', seconds: 9 } }, null).tokens).toEqual({ audio_seconds: 9 });
  });

  it('verbose_json\'s duration, rounded up to the whole second', () => {
    expect(countMediaUsage('audio_seconds', {}, { text: 'hi', duration: 8.470000267028809 }, null).tokens).toEqual({ audio_seconds: 9 });
  });

  it('gpt-4o-transcribe\'s tokens, its audio part from input_token_details', () => {
    const answer = { text: 'hi', usage: { type: 'tokens', input_tokens: 60, input_token_details: { text_tokens: 10, audio_tokens: 50 }, output_tokens: 5, total_tokens: 65 } };
    expect(countMediaUsage('audio_seconds', {}, answer, { input: 60, output: 5, total: 65 }).tokens).toEqual({ input: 60, output: 5, total: 65, audio_input: 50 });
  });

  it('a text transcript says nothing of its length: unknown (null), not 0', () => {
    expect(countMediaUsage('audio_seconds', {}, undefined, null).tokens).toBeNull();
  });
});

describe('speech', () => {
  it('the input\'s characters, as code points', () => {
    expect(countCharacters('héllo 👋')).toBe(7);
    expect('héllo 👋'.length).toBe(8);
    expect(countMediaUsage('characters', { input: 'héllo 👋' }, undefined, null).tokens).toEqual({ characters: 7 });
  });
});

describe('routes and holds', () => {
  it('which unit each media route is priced by', () => {
    expect(mediaUnitOf('images.edits')).toBe('images');
    expect(mediaUnitOf('audio.translations')).toBe('audio_seconds');
    expect(mediaUnitOf('audio.speech')).toBe('characters');
    expect(mediaUnitOf('chat.completions')).toBeUndefined();
  });

  it('what a JSON request asks for before it is sent', () => {
    expect(expectedMediaUnits('images.generations', { n: 4 })).toEqual({ images: 4 });
    expect(expectedMediaUnits('audio.speech', { input: 'hello' })).toEqual({ characters: 5 });
    expect(expectedMediaUnits('chat.completions', { n: 4 })).toEqual({});
  });
});

describe('form fields read on the way up', () => {
  it('forwards the same bytes and reads model, n, size and quality, skipping the file', async () => {
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([Buffer.alloc(200_000, 7)], { type: 'audio/mpeg' }), 'a.mp3');
    form.append('n', '2');
    form.append('prompt', 'not wanted');
    const request = new Request('http://x', { method: 'POST', body: form });
    const type = request.headers.get('content-type')!;
    const bytes = Buffer.from(await request.arrayBuffer());
    const tap = tapFormFields(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), type);
    const chunks: Buffer[] = [];
    for await (const chunk of tap.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(tap.fields).toEqual({ model: 'whisper-1', n: '2' });
  });

  it('a body that is not a form passes through untouched', async () => {
    const tap = tapFormFields(Readable.from([Buffer.from('not a form')]), 'multipart/form-data');
    const chunks: Buffer[] = [];
    for await (const chunk of tap.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('not a form');
    expect(tap.fields).toEqual({});
  });
});
