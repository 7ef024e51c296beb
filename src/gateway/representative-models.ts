// One model per configured provider, named the way gw routes it (`provider/model`): what a
// banner suggests to a tool whose own default model may be one no provider here serves, and
// what a hub tells its sidecars at token exchange for theirs. A name each provider has served
// for long; nothing is asked of the providers.
import type { ProviderSet } from '../pipeline/gateway-services.js';

const REPRESENTATIVE: Record<string, string> = { anthropic: 'claude-sonnet-4-5', openai: 'gpt-4o', gemini: 'gemini-2.5-flash' };

export function representativeModels(set: ProviderSet): string[] {
  return set.providers.flatMap((provider) => {
    if (provider.kind === 'mock') return ['mock/echo'];
    const model = REPRESENTATIVE[provider.kind];
    return model ? [`${provider.name}/${model}`] : [];
  });
}
