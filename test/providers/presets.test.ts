import { describe, expect, it } from 'vitest';
import { OPENAI_COMPATIBLE_PRESETS, findPreset } from '../../src/providers/openai-compatible/presets.js';

describe('OpenAI-compatible presets', () => {
  it('knows each preset with its default URL and variables', () => {
    const table = Object.fromEntries(OPENAI_COMPATIBLE_PRESETS.map((preset) => [preset.name, [preset.defaultBaseUrl, preset.apiKeyEnv, preset.baseUrlEnv, preset.keyless]]));
    expect(table).toEqual({
      ollama: ['http://localhost:11434/v1', 'OLLAMA_API_KEY', 'OLLAMA_BASE_URL', true],
      vllm: ['http://localhost:8000/v1', 'VLLM_API_KEY', 'VLLM_BASE_URL', true],
      llamacpp: ['http://localhost:8081/v1', 'LLAMACPP_API_KEY', 'LLAMACPP_BASE_URL', true],
      groq: ['https://api.groq.com/openai/v1', 'GROQ_API_KEY', 'GROQ_BASE_URL', false],
      mistral: ['https://api.mistral.ai/v1', 'MISTRAL_API_KEY', 'MISTRAL_BASE_URL', false],
      deepseek: ['https://api.deepseek.com/v1', 'DEEPSEEK_API_KEY', 'DEEPSEEK_BASE_URL', false],
      openrouter: ['https://openrouter.ai/api/v1', 'OPENROUTER_API_KEY', 'OPENROUTER_BASE_URL', false],
      together: ['https://api.together.xyz/v1', 'TOGETHER_API_KEY', 'TOGETHER_BASE_URL', false],
      fireworks: ['https://api.fireworks.ai/inference/v1', 'FIREWORKS_API_KEY', 'FIREWORKS_BASE_URL', false],
      xai: ['https://api.x.ai/v1', 'XAI_API_KEY', 'XAI_BASE_URL', false],
    });
  });

  it('never defaults a local server to gw\'s own port 8080', () => {
    for (const preset of OPENAI_COMPATIBLE_PRESETS) expect(new URL(preset.defaultBaseUrl).port).not.toBe('8080');
  });

  it('finds a preset by name', () => {
    expect(findPreset('groq')?.label).toBe('Groq');
    expect(findPreset('nope')).toBeNull();
  });
});
