import { describe, expect, it } from 'vitest';
import { readProviderEnvironment, readProvidersFromEnv } from '../../src/config/providers-from-env.js';
import type { ProviderConfig } from '../../src/providers/provider-adapter.js';

function byName(providers: ProviderConfig[]): Record<string, ProviderConfig> {
  return Object.fromEntries(providers.map((provider) => [provider.name, provider]));
}

describe('readProvidersFromEnv', () => {
  it('configures only the built-in mock from an empty environment', () => {
    expect(readProvidersFromEnv({})).toEqual([{ name: 'mock', kind: 'mock', baseUrl: 'mock:', apiKey: null, source: 'built-in' }]);
  });

  it('reads the first-party keys with the SDKs\' default base URLs', () => {
    const found = byName(readProvidersFromEnv({ OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g' }));
    expect(found.openai).toMatchObject({ kind: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'o', source: 'environment', apiKeyFrom: 'env:OPENAI_API_KEY' });
    expect(found.anthropic).toMatchObject({ kind: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKey: 'a' });
    expect(found.gemini).toMatchObject({ kind: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com', apiKey: 'g' });
  });

  it('takes base URLs from the SDKs\' own variables', () => {
    const found = byName(readProvidersFromEnv({
      OPENAI_API_KEY: 'o', OPENAI_BASE_URL: 'https://proxy.example/v1/',
      ANTHROPIC_API_KEY: 'a', ANTHROPIC_BASE_URL: 'https://claude.example',
      GEMINI_API_KEY: 'g', GOOGLE_GEMINI_BASE_URL: 'https://gemini.example',
    }));
    expect(found.openai).toMatchObject({ baseUrl: 'https://proxy.example/v1', baseUrlFrom: 'OPENAI_BASE_URL' });
    expect(found.anthropic?.baseUrl).toBe('https://claude.example');
    expect(found.gemini?.baseUrl).toBe('https://gemini.example');
  });

  it('counts ANTHROPIC_AUTH_TOKEN and GOOGLE_API_KEY as keys, preferring the primary variables', () => {
    expect(byName(readProvidersFromEnv({ ANTHROPIC_AUTH_TOKEN: 't' })).anthropic).toMatchObject({ apiKey: 't', apiKeyFrom: 'env:ANTHROPIC_AUTH_TOKEN' });
    expect(byName(readProvidersFromEnv({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_AUTH_TOKEN: 't' })).anthropic?.apiKey).toBe('k');
    expect(byName(readProvidersFromEnv({ GOOGLE_API_KEY: 'g2' })).gemini).toMatchObject({ apiKey: 'g2', apiKeyFrom: 'env:GOOGLE_API_KEY' });
    expect(byName(readProvidersFromEnv({ GEMINI_API_KEY: 'g1', GOOGLE_API_KEY: 'g2' })).gemini?.apiKey).toBe('g1');
  });

  it('configures a keyless server from a base URL alone', () => {
    const found = byName(readProvidersFromEnv({ OPENAI_BASE_URL: 'http://localhost:1234/v1', ANTHROPIC_BASE_URL: 'http://localhost:9000' }));
    expect(found.openai).toMatchObject({ kind: 'openai-compatible', baseUrl: 'http://localhost:1234/v1', apiKey: null });
    expect(found.anthropic).toMatchObject({ kind: 'anthropic', apiKey: null });
  });

  it('treats an empty variable as unset', () => {
    expect(readProvidersFromEnv({ OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '  ' }).map((provider) => provider.name)).toEqual(['mock']);
  });

  it('reads Azure OpenAI from key plus endpoint, with OPENAI_API_VERSION', () => {
    const env = { AZURE_OPENAI_API_KEY: 'z', AZURE_OPENAI_ENDPOINT: 'https://res.openai.azure.com/' };
    expect(byName(readProvidersFromEnv(env)).azure).toMatchObject({ kind: 'azure', baseUrl: 'https://res.openai.azure.com', apiKey: 'z', apiVersion: '2024-10-21' });
    expect(byName(readProvidersFromEnv({ ...env, OPENAI_API_VERSION: '2025-04-01-preview' })).azure?.apiVersion).toBe('2025-04-01-preview');
    const half = readProviderEnvironment({ AZURE_OPENAI_API_KEY: 'z' });
    expect(half.providers.map((provider) => provider.name)).toEqual(['mock']);
    expect(half.warnings).toEqual([expect.stringContaining('AZURE_OPENAI_ENDPOINT is not set')]);
  });

  it('reads Vertex AI from Google\'s variables: project, location (else global), credentials file (else ADC), base URL', () => {
    const full = byName(readProvidersFromEnv({
      GOOGLE_CLOUD_PROJECT: 'p1', GOOGLE_CLOUD_LOCATION: 'us-east5', GOOGLE_APPLICATION_CREDENTIALS: '/keys/sa.json', GOOGLE_VERTEX_BASE_URL: 'http://127.0.0.1:9/',
    })).vertex;
    expect(full).toMatchObject({
      kind: 'vertex', baseUrl: 'http://127.0.0.1:9', baseUrlFrom: 'GOOGLE_VERTEX_BASE_URL', apiKey: null, apiKeyFrom: 'env:GOOGLE_APPLICATION_CREDENTIALS',
      google: { project: 'p1', location: 'us-east5', credentialsFile: '/keys/sa.json' },
    });
    const claudeCode = byName(readProvidersFromEnv({ ANTHROPIC_VERTEX_PROJECT_ID: 'p2', CLOUD_ML_REGION: 'europe-west1' })).vertex;
    expect(claudeCode).toMatchObject({ baseUrl: 'https://europe-west1-aiplatform.googleapis.com', apiKeyFrom: 'google-adc', google: { project: 'p2', location: 'europe-west1', credentialsFile: null } });
    expect(byName(readProvidersFromEnv({ GOOGLE_CLOUD_PROJECT: 'p3' })).vertex).toMatchObject({ baseUrl: 'https://aiplatform.googleapis.com', google: { location: 'global' } });
    expect(readProvidersFromEnv({ GOOGLE_CLOUD_LOCATION: 'us-east5' }).map((provider) => provider.name)).toEqual(['mock']);
    const odd = readProviderEnvironment({ GOOGLE_CLOUD_PROJECT: 'p', GOOGLE_CLOUD_LOCATION: 'evil.example/x' });
    expect(odd.warnings).toEqual([expect.stringContaining('not a location')]);
    expect(readProviderEnvironment({ GOOGLE_CLOUD_PROJECT: 'p', GOOGLE_VERTEX_BASE_URL: 'ftp://x' }).warnings).toEqual([expect.stringContaining('not an http(s) URL')]);
  });

  it('reads Claude on Foundry from the Foundry SDK\'s variables: a key with a resource name or a base URL', () => {
    const fromResource = byName(readProvidersFromEnv({ ANTHROPIC_FOUNDRY_API_KEY: 'f', ANTHROPIC_FOUNDRY_RESOURCE: 'my-res' })).foundry;
    expect(fromResource).toMatchObject({ kind: 'foundry', baseUrl: 'https://my-res.services.ai.azure.com/anthropic', apiKey: 'f', apiKeyFrom: 'env:ANTHROPIC_FOUNDRY_API_KEY', baseUrlFrom: 'ANTHROPIC_FOUNDRY_RESOURCE' });
    const fromUrl = byName(readProvidersFromEnv({ ANTHROPIC_FOUNDRY_API_KEY: 'f', ANTHROPIC_FOUNDRY_BASE_URL: 'http://127.0.0.1:9/anthropic/' })).foundry;
    expect(fromUrl).toMatchObject({ baseUrl: 'http://127.0.0.1:9/anthropic', baseUrlFrom: 'ANTHROPIC_FOUNDRY_BASE_URL' });
    const both = readProviderEnvironment({ ANTHROPIC_FOUNDRY_API_KEY: 'f', ANTHROPIC_FOUNDRY_RESOURCE: 'r', ANTHROPIC_FOUNDRY_BASE_URL: 'https://x.example' });
    expect(both.providers.map((provider) => provider.name)).toEqual(['mock']);
    expect(both.warnings).toEqual([expect.stringContaining('both set')]);
    const keyless = readProviderEnvironment({ ANTHROPIC_FOUNDRY_RESOURCE: 'r' });
    expect(keyless.warnings).toEqual([expect.stringContaining('ANTHROPIC_FOUNDRY_API_KEY is not set')]);
    const odd = readProviderEnvironment({ ANTHROPIC_FOUNDRY_API_KEY: 'f', ANTHROPIC_FOUNDRY_RESOURCE: 'evil.example/x' });
    expect(odd.warnings).toEqual([expect.stringContaining('not a resource name')]);
  });

  it('reads every preset from its key, and its base URL variable overrides the default', () => {
    const env = {
      GROQ_API_KEY: '1', MISTRAL_API_KEY: '2', DEEPSEEK_API_KEY: '3', OPENROUTER_API_KEY: '4',
      TOGETHER_API_KEY: '5', FIREWORKS_API_KEY: '6', XAI_API_KEY: '7', XAI_BASE_URL: 'https://xai.proxy/v1',
    };
    const found = byName(readProvidersFromEnv(env));
    expect(found.groq).toMatchObject({ kind: 'openai-compatible', preset: 'groq', baseUrl: 'https://api.groq.com/openai/v1', apiKey: '1' });
    expect(found.mistral?.baseUrl).toBe('https://api.mistral.ai/v1');
    expect(found.deepseek?.baseUrl).toBe('https://api.deepseek.com/v1');
    expect(found.openrouter?.baseUrl).toBe('https://openrouter.ai/api/v1');
    expect(found.together?.baseUrl).toBe('https://api.together.xyz/v1');
    expect(found.fireworks?.baseUrl).toBe('https://api.fireworks.ai/inference/v1');
    expect(found.xai?.baseUrl).toBe('https://xai.proxy/v1');
  });

  it('configures local servers from their base URL alone, adding /v1 to a bare origin', () => {
    const found = byName(readProvidersFromEnv({
      OLLAMA_BASE_URL: 'http://gpu-box:11434', VLLM_BASE_URL: 'http://localhost:8000/v1', LLAMACPP_BASE_URL: 'http://127.0.0.1:8081/v1',
    }));
    expect(found.ollama).toMatchObject({ kind: 'openai-compatible', preset: 'ollama', baseUrl: 'http://gpu-box:11434/v1', apiKey: null });
    expect(found.vllm).toMatchObject({ baseUrl: 'http://localhost:8000/v1', apiKey: null });
    expect(found.llamacpp?.baseUrl).toBe('http://127.0.0.1:8081/v1');
    expect(byName(readProvidersFromEnv({ VLLM_API_KEY: 'v' })).vllm).toMatchObject({ baseUrl: 'http://localhost:8000/v1', apiKey: 'v' });
  });

  it('refuses a gw credential in a provider variable, and a base URL that is not a URL', () => {
    const reading = readProviderEnvironment({ ANTHROPIC_AUTH_TOKEN: 'sk-gw-abc', OPENAI_API_KEY: 'atu-xyz', GROQ_BASE_URL: 'not a url' });
    expect(reading.providers.map((provider) => provider.name)).toEqual(['mock']);
    expect(reading.warnings).toHaveLength(3);
    expect(reading.warnings.join('\n')).not.toContain('sk-gw-abc');
    expect(reading.warnings[0]).toMatch(/^provider openai: OPENAI_API_KEY holds a gw credential/);
  });
});
