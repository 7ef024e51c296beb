// Media calls priced per unit, with the numbers worked out by hand from the price pages
// (https://platform.openai.com/docs/pricing, as of the bundled @pydantic/genai-prices):
// whisper-1 0.006 USD a minute (the dataset's 0.36 an hour), dall-e-3 0.04 / 0.08 / 0.12 an
// image by size and quality, tts-1 15 USD per million characters (overrides: the dataset has
// neither), gpt-image-1 5 USD per million input tokens (10 for image input) and 40 per million output.
import { describe, expect, it } from 'vitest';
import { estimateWorstCase } from '../../src/spend/estimate-worst-case.js';
import { createPriceBook } from '../../src/spend/price-book.js';
import { readGovernance } from '../../src/state/parse-governance.js';
import type { StoredPrice } from '../../src/state/governance-schema.js';

const openai = (model: string) => ({ provider: 'openai', kind: 'openai', model });

const DALL_E_3: StoredPrice = {
  provider: 'openai', model: 'dall-e-3', per_image: 0.04,
  per_image_variants: { '1024x1792': 0.08, hd: 0.08, '1024x1792/hd': 0.12 },
};
const TTS_1: StoredPrice = { provider: 'openai', model: 'tts-1', per_million_characters: 15 };

describe('per-unit prices', () => {
  const book = createPriceBook(() => [DALL_E_3, TTS_1]);

  it('whisper-1 from the dataset: 90 s at 0.006 USD a minute = 0.009 USD', () => {
    expect(book.price(openai('whisper-1'), { audio_seconds: 90 })).toEqual({ nano_usd: 9_000_000, price: 'dataset', priced_as: 'whisper-1' });
  });

  it('Groq bills whisper for at least 10 s (the library knows): 3 s at 0.111 USD an hour = 10 × 0.111 / 3600', () => {
    const cost = book.price({ provider: 'groq', kind: 'openai-compatible', preset: 'groq', model: 'whisper-large-v3' }, { audio_seconds: 3 });
    expect(cost.nano_usd).toBe(308_333);
  });

  it('dall-e-3 by size and quality: the most specific price wins', () => {
    const image = (size: string, quality: string) => book.price(openai('dall-e-3'), { images: 2 }, { size, quality }).nano_usd;
    expect(image('1024x1792', 'hd')).toBe(240_000_000); // 2 × 0.12
    expect(image('1024x1792', 'standard')).toBe(160_000_000); // 2 × 0.08, by size
    expect(image('1024x1024', 'hd')).toBe(160_000_000); // 2 × 0.08, by quality
    expect(image('1024x1024', 'standard')).toBe(80_000_000); // 2 × 0.04, any image
    expect(book.price(openai('dall-e-3'), { images: 1 }).nano_usd).toBe(40_000_000);
  });

  it('tts-1: 1,000 characters at 15 USD per million = 0.015 USD', () => {
    expect(book.price(openai('tts-1'), { characters: 1000 })).toEqual({ nano_usd: 15_000_000, price: 'override', priced_as: 'tts-1' });
  });

  it('an override per audio minute: 61 s at 0.005 = 0.00508333 USD', () => {
    const own = createPriceBook(() => [{ provider: 'openai', model: 'whisper-1', per_audio_minute: 0.005 }]);
    expect(own.price(openai('whisper-1'), { audio_seconds: 61 })).toEqual({ nano_usd: 5_083_333, price: 'override', priced_as: 'whisper-1' });
  });

  it('gpt-image-1 bills its tokens: the image count rides along, priced by tokens', () => {
    // 50 input at 5 USD per million + 100 output at 40 per million = 0.00025 + 0.004.
    expect(book.price(openai('gpt-image-1'), { input: 50, output: 100, images: 1 }).nano_usd).toBe(4_250_000);
  });

  it('gpt-image-1 edit: the image tokens among its input at 10 USD per million, the text ones at 5', () => {
    // 1,000 input of which 800 image: 200 × 5 + 800 × 10 = 9,000 per million = 0.009; 100 output at 40 per million = 0.004.
    expect(book.price(openai('gpt-image-1'), { input: 1_000, image_input: 800, output: 100, images: 1 }).nano_usd).toBe(13_000_000);
  });

  it('a unit with no price is unknown, never 0', () => {
    // gpt-4o-mini-tts is priced per token in the dataset; speech answers carry no tokens.
    expect(book.price(openai('gpt-4o-mini-tts'), { characters: 1000 })).toEqual({ price: 'unknown' });
    // whisper-1 has no token price; an image model with no image price.
    expect(book.price(openai('whisper-1'), { input: 100, output: 10 })).toEqual({ price: 'unknown' });
    expect(createPriceBook(() => [TTS_1]).price(openai('tts-1'), { images: 1 })).toEqual({ price: 'unknown' });
    expect(book.price(openai('dall-e-2'), { images: 1 })).toEqual({ price: 'unknown' });
  });

  it('a chat call on a model priced only per unit is unknown, never 0', () => {
    expect(book.price(openai('tts-1'), { input: 10, output: 10 })).toEqual({ price: 'unknown' });
  });
});

describe('per-unit rates for a hard budget', () => {
  const book = createPriceBook(() => [DALL_E_3, TTS_1]);

  it('the dearest image price, the dataset per second and per character', () => {
    expect(book.rates(openai('dall-e-3'))).toEqual({ input: 0, output: 0, perImage: 0.12 });
    expect(book.rates(openai('whisper-1'))?.perAudioSecond).toBeCloseTo(0.0001, 15);
    expect(book.rates(openai('tts-1'))).toEqual({ input: 0, output: 0, perCharacter: 0.000015 });
  });

  it('3 images held at the dearest 0.12, 1,000 characters at 15 per million', () => {
    expect(estimateWorstCase({ input: 0, output: 0, perImage: 0.12 }, 0, { n: 3 }, { images: 3 })).toBe(360_000_000);
    // Rounded up (a hold is never short), so a float a hair above 0.015 becomes one nano-USD more.
    const speech = estimateWorstCase({ input: 0, output: 0, perCharacter: 0.000015 }, 0, {}, { characters: 1000 });
    expect(speech).toBeGreaterThanOrEqual(15_000_000);
    expect(speech).toBeLessThanOrEqual(15_000_001);
  });
});

describe('stored unit prices', () => {
  const state = (price: Record<string, unknown>) => readGovernance({ policies: [], dlp: [], routes: [], prices: [{ provider: 'openai', model: 'm', ...price }] });

  it('a unit price alone is a price; nothing at all is not', () => {
    expect(typeof state({ per_image: 0.04 })).toBe('object');
    expect(state({})).toMatch(/input_mtok/);
  });

  it('image variants are numbers ≥ 0', () => {
    expect(typeof state({ per_image_variants: { hd: 0.08 } })).toBe('object');
    expect(state({ per_image_variants: { hd: 'cheap' } })).toMatch(/per_image_variants/);
    expect(state({ per_audio_minute: -1 })).toMatch(/per_audio_minute/);
  });
});
