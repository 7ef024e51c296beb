import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.js';
import type { ProviderConfig, ProviderKind } from '../../src/providers/provider-adapter.js';
import { resolveModel } from '../../src/routing/resolve-model.js';

function provider(name: string, kind: ProviderKind = name as ProviderKind): ProviderConfig {
  return { name, kind, baseUrl: 'https://example.com', apiKey: 'k', source: 'environment' };
}

const mock = provider('mock');
const openai = provider('openai');
const anthropic = provider('anthropic');
const gemini = provider('gemini');
const groq = provider('groq', 'openai-compatible');
const all = [openai, anthropic, gemini, groq, mock];

function route(model: string, providers: ProviderConfig[] = all, aliases: Record<string, string> = {}) {
  const found = resolveModel(model, providers, aliases);
  return [found.provider.name, found.upstreamModel];
}

function failure(model: string, providers: ProviderConfig[] = all, aliases: Record<string, string> = {}): GatewayError {
  try {
    resolveModel(model, providers, aliases);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error(`${model} resolved`);
}

describe('resolveModel', () => {
  it('routes provider/model to a configured instance, keeping the rest whole', () => {
    expect(route('groq/llama-3.3-70b')).toEqual(['groq', 'llama-3.3-70b']);
    expect(route('openai/gpt-4o')).toEqual(['openai', 'gpt-4o']);
    expect(route('groq/meta-llama/llama-4')).toEqual(['groq', 'meta-llama/llama-4']);
    expect(route('anthropic/gpt-4o')).toEqual(['anthropic', 'gpt-4o']);
  });

  it('always routes mock/<anything>, even when the list lacks mock', () => {
    expect(route('mock/error-429', [])).toEqual(['mock', 'error-429']);
    expect(route('mock/slow')).toEqual(['mock', 'slow']);
  });

  it('resolves aliases to provider/model, once', () => {
    const aliases = { fast: 'groq/llama-3.1-8b', smart: 'anthropic/claude-opus-4', 'gpt-4o': 'groq/gpt-oss-120b', loop: 'fast' };
    expect(route('fast', all, aliases)).toEqual(['groq', 'llama-3.1-8b']);
    expect(route('smart', all, aliases)).toEqual(['anthropic', 'claude-opus-4']);
    expect(route('gpt-4o', all, aliases)).toEqual(['groq', 'gpt-oss-120b']);
    expect(failure('loop', all, aliases).status).toBe(404);
    expect(failure('smart', [mock], aliases).message).toBe(
      'Alias "smart" points at "anthropic/claude-opus-4", but provider "anthropic" is not configured (set ANTHROPIC_API_KEY (or ANTHROPIC_FOUNDRY_API_KEY and ANTHROPIC_FOUNDRY_RESOURCE) where gw serve runs). Configured providers: mock.',
    );
  });

  it('places well-known prefixes on the first provider of that kind', () => {
    for (const model of ['gpt-4o', 'o1', 'o3-mini', 'o4-mini', 'chatgpt-4o-latest', 'text-embedding-3-small']) expect(route(model)).toEqual(['openai', model]);
    expect(route('claude-sonnet-4-5')).toEqual(['anthropic', 'claude-sonnet-4-5']);
    expect(route('gemini-2.5-pro')).toEqual(['gemini', 'gemini-2.5-pro']);
    expect(route('text-embedding-004')).toEqual(['gemini', 'text-embedding-004']);
    const second = provider('anthropic-eu', 'anthropic');
    expect(route('claude-x', [second, anthropic])).toEqual(['anthropic-eu', 'claude-x']);
  });

  it('sends OpenAI names to Azure when no OpenAI is configured, and to a keyless instance named openai', () => {
    expect(route('gpt-4o', [provider('azure'), mock])).toEqual(['azure', 'gpt-4o']);
    expect(route('gpt-oss-20b', [provider('openai', 'openai-compatible'), provider('azure'), mock])).toEqual(['openai', 'gpt-oss-20b']);
  });

  it('sends Claude names to Claude on Foundry when no Anthropic is configured, and to Anthropic first', () => {
    const foundry = provider('foundry');
    expect(route('claude-sonnet-4-5', [foundry, mock])).toEqual(['foundry', 'claude-sonnet-4-5']);
    expect(route('claude-sonnet-4-5', [foundry, anthropic, mock])).toEqual(['anthropic', 'claude-sonnet-4-5']);
    expect(failure('gpt-4o', [foundry, mock]).message).toContain('OPENAI_API_KEY');
  });

  it('sends what it cannot place to a configured gateway (sidecar)', () => {
    const hub = provider('hub', 'gateway');
    expect(route('claude-sonnet-4', [hub, mock])).toEqual(['hub', 'claude-sonnet-4']);
    expect(route('anthropic/claude-sonnet-4', [hub, mock])).toEqual(['hub', 'anthropic/claude-sonnet-4']);
    expect(route('team-model', [hub, mock])).toEqual(['hub', 'team-model']);
  });

  it('says which variable to set when a prefix\'s provider is not configured', () => {
    const error = failure('claude-sonnet-4', [openai, mock]);
    expect(error.code).toBe('GW_ERR_MODEL_NOT_FOUND');
    expect(error.status).toBe(404);
    expect(error.message).toMatch(/^Model "claude-sonnet-4" needs the anthropic provider, which is not configured: set ANTHROPIC_API_KEY/);
    expect(failure('gemini-2.5-pro', [mock]).message).toMatch(/set GEMINI_API_KEY \(or GOOGLE_API_KEY\)/);
  });

  it('lists how to name a model when it is unknown', () => {
    expect(failure('foo', [mock, openai], { fast: 'openai/gpt-4o-mini' }).message).toBe(
      'Unknown model "foo". Name it as provider/model (configured providers: mock, openai), use an alias (fast), or a well-known prefix: ' +
      'gpt-/o1/o3/o4/chatgpt-/text-embedding- → openai, claude- → anthropic, gemini-/text-embedding-004 → gemini.',
    );
    expect(failure('groq/llama', [mock]).message).toMatch(/^Unknown model "groq\/llama"\. Provider "groq" is not configured: set GROQ_API_KEY where gw serve runs\. Name it/);
    expect(failure('meta-llama/Llama-3', [mock]).message).toMatch(/No provider is named "meta-llama"\. .*use an alias \(none configured\)/);
    expect(failure('openai/', [mock, openai]).message).toMatch(/^Unknown model "openai\/"\. Name a model after "openai\/"\./);
    expect(failure('', [mock]).status).toBe(404);
  });
});

describe('well-known names go to their vendor (issue 40)', () => {
  const added = (name: string, kind: ProviderKind, baseUrl: string, takes?: string[]): ProviderConfig =>
    ({ name, kind, baseUrl, apiKey: null, source: 'state', ...(takes === undefined ? {} : { takes }) });

  it('does not give gpt-… to a --kind openai provider added at another host', () => {
    const vllm = added('vllm', 'openai', 'http://10.0.0.5:8000/v1');
    const error = failure('gpt-4o', [vllm, mock]);
    expect(error.message).toContain('Provider vllm (openai, not the vendor\'s URL) answers only vllm/MODEL: call vllm/gpt-4o');
    expect(error.message).toContain('--takes \'gpt-*\'');
    expect(route('vllm/gpt-4o', [vllm, mock])).toEqual(['vllm', 'gpt-4o']);
    // The environment's OpenAI keeps them when a vLLM is added before it in the list.
    expect(route('gpt-4o', [vllm, openai, mock])).toEqual(['openai', 'gpt-4o']);
    // A state provider named openai of another kind is no vendor either.
    expect(failure('gpt-4o', [added('openai', 'openai-compatible', 'http://10.0.0.5/v1'), mock]).status).toBe(404);
  });

  it('gives them to one added at the vendor\'s own URL, and to the names an admin lists with takes', () => {
    expect(route('gpt-4o', [added('work', 'openai', 'https://api.openai.com/v1'), mock])).toEqual(['work', 'gpt-4o']);
    expect(route('claude-x', [added('eu', 'anthropic', 'https://api.anthropic.com'), mock])).toEqual(['eu', 'claude-x']);
    const vllm = added('vllm', 'openai-compatible', 'http://10.0.0.5:8000/v1', ['gpt-']);
    expect(route('gpt-oss-20b', [openai, vllm, mock])).toEqual(['vllm', 'gpt-oss-20b']);
    expect(route('o3', [openai, vllm, mock])).toEqual(['openai', 'o3']);
    // takes: [] at the vendor's URL: only name/MODEL.
    expect(failure('gpt-4o', [added('work', 'openai', 'https://api.openai.com/v1', []), mock]).status).toBe(404);
  });
});
