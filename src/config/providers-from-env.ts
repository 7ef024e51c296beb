// Providers from the environment, with no config file at all (DESIGN.md,
// "Formats and providers"): each SDK's own key and base URL variables, so the
// shell that already works with the SDKs works with gw. A base URL alone
// configures a keyless server. Only config/ reads the environment, and it takes
// it as a parameter.
import { AZURE_DEFAULT_API_VERSION } from '../providers/azure/adapter.js';
import { DEFAULT_BASE_URLS } from '../providers/default-base-urls.js';
import { MOCK_BASE_URL } from '../providers/mock/adapter.js';
import { foundryBaseUrl } from '../providers/foundry/adapter.js';
import { OPENAI_COMPATIBLE_PRESETS, type OpenAiCompatiblePreset } from '../providers/openai-compatible/presets.js';
import { readBedrockConfig } from '../providers/bedrock/read-bedrock-config.js';
import { readVertexConfig } from '../providers/vertex/read-vertex-config.js';
import type { ProviderConfig, ProviderKind } from '../providers/provider-adapter.js';

export type Environment = Record<string, string | undefined>;

export interface ProviderReading {
  providers: ProviderConfig[];
  /** One line each, for a person: why a variable that looks like a provider was not used. */
  warnings: string[];
}

interface FirstParty {
  name: string;
  kind: ProviderKind;
  /** In order of preference. */
  keyVariables: string[];
  baseUrlVariable: string;
  /** Kind of the instance a base URL alone configures. */
  keylessKind: ProviderKind;
}

const FIRST_PARTY: FirstParty[] = [
  // OPENAI_BASE_URL alone is almost always a local OpenAI-compatible server (vLLM, LM Studio…).
  { name: 'openai', kind: 'openai', keyVariables: ['OPENAI_API_KEY'], baseUrlVariable: 'OPENAI_BASE_URL', keylessKind: 'openai-compatible' },
  // The Anthropic SDK takes ANTHROPIC_AUTH_TOKEN too (https://github.com/anthropics/anthropic-sdk-typescript#usage).
  {
    name: 'anthropic', kind: 'anthropic', keyVariables: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'],
    baseUrlVariable: 'ANTHROPIC_BASE_URL', keylessKind: 'anthropic',
  },
  // Gemini CLI reads GEMINI_API_KEY; GOOGLE_API_KEY is the older Google name (https://ai.google.dev/gemini-api/docs/api-key).
  { name: 'gemini', kind: 'gemini', keyVariables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], baseUrlVariable: 'GOOGLE_GEMINI_BASE_URL', keylessKind: 'gemini' },
  // Rerank providers, each in its own wire format (src/providers/{cohere,jina,voyage}).
  { name: 'cohere', kind: 'cohere', keyVariables: ['COHERE_API_KEY', 'CO_API_KEY'], baseUrlVariable: 'COHERE_BASE_URL', keylessKind: 'cohere' },
  { name: 'jina', kind: 'jina', keyVariables: ['JINA_API_KEY'], baseUrlVariable: 'JINA_BASE_URL', keylessKind: 'jina' },
  { name: 'voyage', kind: 'voyage', keyVariables: ['VOYAGE_API_KEY'], baseUrlVariable: 'VOYAGE_BASE_URL', keylessKind: 'voyage' },
];

// Presets whose provider offers more than the OpenAI-compatible API gets their own
// adapter: MISTRAL_API_KEY configures one provider `mistral` serving chat and OCR.
const PRESET_KINDS: Readonly<Record<string, ProviderKind>> = { mistral: 'mistral' };

// A gw credential in a provider variable is the coding tool's setting for talking
// to gw (`gw serve` prints such lines); sending it to a provider would leak it.
const GW_CREDENTIAL = /^(sk-gw-|atu-)/;

export const MOCK_PROVIDER: ProviderConfig = Object.freeze({
  name: 'mock', kind: 'mock', baseUrl: MOCK_BASE_URL, apiKey: null, source: 'built-in',
});

export function readProvidersFromEnv(env: Environment): ProviderConfig[] {
  return readProviderEnvironment(env).providers;
}

/** Like readProvidersFromEnv, with the reasons variables were not used. */
export function readProviderEnvironment(env: Environment): ProviderReading {
  const reading: ProviderReading = { providers: [], warnings: [] };
  for (const entry of FIRST_PARTY) addFirstParty(reading, env, entry);
  addAzure(reading, env);
  addFoundry(reading, env);
  for (const preset of OPENAI_COMPATIBLE_PRESETS) addPreset(reading, env, preset);
  addBedrock(reading, env);
  addVertex(reading, env);
  reading.providers.push({ ...MOCK_PROVIDER });
  return reading;
}

function addFirstParty(reading: ProviderReading, env: Environment, entry: FirstParty): void {
  const key = pickKey(reading, env, entry.name, entry.keyVariables);
  const baseUrl = readBaseUrl(reading, env, entry.name, entry.baseUrlVariable);
  if (key === 'refused' || baseUrl === 'invalid') return;
  if (key === null && baseUrl === null) return;
  reading.providers.push({
    name: entry.name,
    kind: key === null ? entry.keylessKind : entry.kind,
    baseUrl: baseUrl ?? DEFAULT_BASE_URLS[entry.kind] ?? '',
    apiKey: key?.value ?? null,
    source: 'environment',
    baseUrlFrom: baseUrl === null ? 'default' : entry.baseUrlVariable,
    ...(key === null ? {} : { apiKeyFrom: `env:${key.variable}` }),
  });
}

// https://learn.microsoft.com/en-us/azure/ai-services/openai/supported-languages (the SDKs' variables)
function addAzure(reading: ProviderReading, env: Environment): void {
  const key = pickKey(reading, env, 'azure', ['AZURE_OPENAI_API_KEY']);
  const endpoint = readBaseUrl(reading, env, 'azure', 'AZURE_OPENAI_ENDPOINT');
  if (key === 'refused' || endpoint === 'invalid' || (key === null && endpoint === null)) return;
  if (key === null || endpoint === null) {
    const missing = key === null ? 'AZURE_OPENAI_API_KEY' : 'AZURE_OPENAI_ENDPOINT';
    reading.warnings.push(`provider azure: ${missing} is not set; azure needs both AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT; skipped`);
    return;
  }
  reading.providers.push({
    name: 'azure', kind: 'azure', baseUrl: endpoint, apiKey: key.value,
    apiVersion: readVariable(env, 'OPENAI_API_VERSION') ?? AZURE_DEFAULT_API_VERSION,
    source: 'environment', baseUrlFrom: 'AZURE_OPENAI_ENDPOINT', apiKeyFrom: 'env:AZURE_OPENAI_API_KEY',
  });
}

// The Foundry SDK's and Claude Code's variables: ANTHROPIC_FOUNDRY_API_KEY with ANTHROPIC_FOUNDRY_RESOURCE
// (the resource name) or ANTHROPIC_FOUNDRY_BASE_URL (mutually exclusive, as the SDK has them).
function addFoundry(reading: ProviderReading, env: Environment): void {
  const key = pickKey(reading, env, 'foundry', ['ANTHROPIC_FOUNDRY_API_KEY']);
  const given = readBaseUrl(reading, env, 'foundry', 'ANTHROPIC_FOUNDRY_BASE_URL');
  const resource = readVariable(env, 'ANTHROPIC_FOUNDRY_RESOURCE');
  if (key === 'refused' || given === 'invalid' || (key === null && given === null && resource === undefined)) return;
  if (given !== null && resource !== undefined) {
    reading.warnings.push('provider foundry: ANTHROPIC_FOUNDRY_BASE_URL and ANTHROPIC_FOUNDRY_RESOURCE are both set; set one; skipped');
    return;
  }
  if (resource !== undefined && !/^[a-z0-9][a-z0-9-]*$/i.test(resource)) {
    reading.warnings.push('provider foundry: ANTHROPIC_FOUNDRY_RESOURCE is not a resource name (letters, digits and dashes); skipped');
    return;
  }
  if (key === null || (given === null && resource === undefined)) {
    const missing = key === null ? 'ANTHROPIC_FOUNDRY_API_KEY' : 'ANTHROPIC_FOUNDRY_RESOURCE (or ANTHROPIC_FOUNDRY_BASE_URL)';
    reading.warnings.push(`provider foundry: ${missing} is not set; foundry needs a key and a resource; skipped`);
    return;
  }
  reading.providers.push({
    name: 'foundry', kind: 'foundry', baseUrl: given ?? foundryBaseUrl(resource ?? ''), apiKey: key.value, source: 'environment',
    baseUrlFrom: given === null ? 'ANTHROPIC_FOUNDRY_RESOURCE' : 'ANTHROPIC_FOUNDRY_BASE_URL', apiKeyFrom: 'env:ANTHROPIC_FOUNDRY_API_KEY',
  });
}

function addPreset(reading: ProviderReading, env: Environment, preset: OpenAiCompatiblePreset): void {
  const key = pickKey(reading, env, preset.name, [preset.apiKeyEnv]);
  const baseUrl = readBaseUrl(reading, env, preset.name, preset.baseUrlEnv);
  if (key === 'refused' || baseUrl === 'invalid' || (key === null && baseUrl === null)) return;
  reading.providers.push({
    name: preset.name,
    kind: PRESET_KINDS[preset.name] ?? 'openai-compatible',
    baseUrl: baseUrl === null ? preset.defaultBaseUrl : completeLocalBaseUrl(baseUrl, preset),
    apiKey: key?.value ?? null,
    preset: preset.name,
    source: 'environment',
    baseUrlFrom: baseUrl === null ? 'default' : preset.baseUrlEnv,
    ...(key === null ? {} : { apiKeyFrom: `env:${key.variable}` }),
  });
}

/**
 * Other tools set OLLAMA_BASE_URL without the `/v1` of Ollama's OpenAI API
 * (http://localhost:11434); a local server's bare origin gets the default's path.
 */
function completeLocalBaseUrl(baseUrl: string, preset: OpenAiCompatiblePreset): string {
  if (!preset.keyless || new URL(baseUrl).pathname.replace(/\/+$/, '') !== '') return baseUrl;
  return `${baseUrl.replace(/\/+$/, '')}${new URL(preset.defaultBaseUrl).pathname}`;
}

function pickKey(
  reading: ProviderReading, env: Environment, name: string, variables: string[],
): { value: string; variable: string } | null | 'refused' {
  const refused: string[] = [];
  for (const variable of variables) {
    const value = readVariable(env, variable);
    if (value === undefined) continue;
    if (!GW_CREDENTIAL.test(value)) return { value, variable };
    refused.push(variable);
  }
  if (refused.length === 0) return null;
  reading.warnings.push(
    `provider ${name}: ${refused.join(' and ')} holds a gw credential (sk-gw-…/atu-…), not a provider key; skipped ` +
    '(it is the setting for tools that talk to gw: unset it in the shell that runs gw serve)',
  );
  return 'refused';
}

// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- 'invalid' names the answer callers test for
function readBaseUrl(reading: ProviderReading, env: Environment, name: string, variable: string): string | null | 'invalid' {
  const value = readVariable(env, variable);
  if (value === undefined) return null;
  if (isHttpUrl(value)) return value.replace(/\/+$/, '');
  // The value is not echoed: a mistyped variable may hold a key.
  reading.warnings.push(`provider ${name}: ${variable} is not an http(s) URL; skipped`);
  return 'invalid';
}

/** Empty means unset: `export OPENAI_API_KEY=` is how people switch a provider off. */
function readVariable(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

// AWS_REGION, AWS_BEARER_TOKEN_BEDROCK or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, BEDROCK_BASE_URL
// (src/providers/bedrock/read-bedrock-config.ts says which wins).
function addBedrock(reading: ProviderReading, env: Environment): void {
  const config = readBedrockConfig(env);
  if (!config) return;
  const { auth } = config;
  reading.providers.push({
    name: 'bedrock', kind: 'bedrock', baseUrl: config.baseUrl, source: 'environment', baseUrlFrom: config.baseUrlFrom,
    apiKey: auth.type === 'bearer' ? auth.token : null,
    ...(auth.type === 'none' ? {} : { apiKeyFrom: auth.from }),
    ...(auth.type === 'sigv4' ? { aws: { region: config.region, credentials: auth.credentials } } : {}),
  });
}

// GOOGLE_CLOUD_PROJECT, GOOGLE_CLOUD_LOCATION, GOOGLE_APPLICATION_CREDENTIALS, GOOGLE_VERTEX_BASE_URL
// (src/providers/vertex/read-vertex-config.ts). No key: each call carries a minted access token.
function addVertex(reading: ProviderReading, env: Environment): void {
  const config = readVertexConfig(env);
  if (config === null) return;
  if (typeof config === 'string') {
    reading.warnings.push(`provider vertex: ${config}; skipped`);
    return;
  }
  if (config.baseUrlFrom !== 'default' && !isHttpUrl(config.baseUrl)) {
    reading.warnings.push('provider vertex: GOOGLE_VERTEX_BASE_URL is not an http(s) URL; skipped');
    return;
  }
  reading.providers.push({
    name: 'vertex', kind: 'vertex', baseUrl: config.baseUrl, apiKey: null, source: 'environment', baseUrlFrom: config.baseUrlFrom,
    apiKeyFrom: config.credentialsFile === null ? 'google-adc' : 'env:GOOGLE_APPLICATION_CREDENTIALS',
    google: { project: config.project, location: config.location, credentialsFile: config.credentialsFile },
  });
}
