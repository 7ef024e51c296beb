// `gw state export` without --with-secrets: the state minus the secrets a provider or a server
// needs, which the state holds as values when they were given as values (a literal --api-key,
// a password in a base URL, an MCP server's literal header or child variable, a routing
// target's literal key). `env:NAME` references stay: they name a variable, not its value.
// What was left out is listed, so whoever imports it knows what to give again.
import type { StateData } from '../state/schema.js';

export interface StateWithoutSecrets {
  state: StateData;
  /** What was left out, e.g. `provider openai: api_key`; empty when nothing was. */
  leftOut: string[];
}

const isReference = (value: string): boolean => /^env:[A-Za-z_][A-Za-z0-9_]*$/.test(value);

export function stateWithoutSecrets(snapshot: StateData): StateWithoutSecrets {
  const state = structuredClone(snapshot);
  const leftOut: string[] = [];
  for (const provider of state.providers) {
    if (provider.api_key !== null && !isReference(provider.api_key)) {
      provider.api_key = null;
      delete provider.key_host;
      leftOut.push(`provider ${provider.name}: api_key`);
    }
    const url = withoutPassword(provider.base_url);
    if (url !== provider.base_url) {
      provider.base_url = url;
      leftOut.push(`provider ${provider.name}: the password in base_url`);
    }
  }
  for (const server of state.mcp_servers ?? []) {
    for (const field of ['headers', 'env'] as const) {
      for (const [name, value] of Object.entries(server[field] ?? {})) {
        if (isReference(value)) continue;
        delete server[field]![name];
        leftOut.push(`MCP server ${server.name}: ${field === 'headers' ? 'header' : 'variable'} ${name}`);
      }
    }
  }
  for (const guardrail of state.guardrails ?? []) {
    if (guardrail.credential === undefined || isReference(guardrail.credential)) continue;
    delete guardrail.credential;
    delete guardrail.credential_host;
    leftOut.push(`guardrail ${guardrail.name}: credential`);
  }
  for (const route of state.routes ?? []) {
    for (const target of route.targets) {
      if (target.key === undefined || isReference(target.key)) continue;
      delete target.key;
      delete target.key_host;
      leftOut.push(`route ${route.name}: the key of target ${target.model}`);
    }
  }
  return { state, leftOut };
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '';
    return parsed.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    return url;
  }
}
