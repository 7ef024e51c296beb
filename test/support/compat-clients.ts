// The SDK classes the compatibility matrix drives (test/e2e/translation/sdk-clients.ts): the
// repo's pinned SDKs, or, with GW_COMPAT_CLIENTS_DIR set (npm run compat:latest), those
// installed in that folder. There, scripts/compat-latest.mjs writes sdks.mjs, which
// re-exports them: a module inside the folder resolves the bare package names from the
// folder's own node_modules, with the ESM entry points Node picks for an import. The types
// stay the pinned SDKs' (a newer SDK is checked by running it, not by compiling against it).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type AnthropicClass from '@anthropic-ai/sdk';
import type { GoogleGenAI as GoogleGenAIClass } from '@google/genai';
import type OpenAIClass from 'openai';
import { CLIENTS_DIR } from './compat-matrix.js';

export interface Sdks {
  OpenAI: typeof OpenAIClass;
  Anthropic: typeof AnthropicClass;
  GoogleGenAI: typeof GoogleGenAIClass;
}

async function loadPinned(): Promise<Sdks> {
  const [openai, anthropic, genai] = await Promise.all([import('openai'), import('@anthropic-ai/sdk'), import('@google/genai')]);
  return { OpenAI: openai.default, Anthropic: anthropic.default, GoogleGenAI: genai.GoogleGenAI };
}

/** The SDKs of `clientsDir` (GW_COMPAT_CLIENTS_DIR by default), or the pinned ones when there is none. */
export async function loadSdks(clientsDir: string | undefined = CLIENTS_DIR): Promise<Sdks> {
  if (clientsDir === undefined) return loadPinned();
  const entry = path.join(clientsDir, 'sdks.mjs');
  if (!existsSync(entry)) throw new Error(`GW_COMPAT_CLIENTS_DIR=${clientsDir} has no sdks.mjs: npm run compat:latest installs the clients there`);
  const sdks = await import(pathToFileURL(entry).href) as Partial<Sdks>;
  if (!sdks.OpenAI || !sdks.Anthropic || !sdks.GoogleGenAI) throw new Error(`${entry} does not export OpenAI, Anthropic and GoogleGenAI`);
  // The same class as the repo's would mean the names resolved to the pinned SDKs: the run would check nothing new.
  const pinned = await loadPinned();
  if (sdks.OpenAI === pinned.OpenAI || sdks.Anthropic === pinned.Anthropic || sdks.GoogleGenAI === pinned.GoogleGenAI) {
    throw new Error(`${entry} loaded the repo's pinned SDKs, not those in ${clientsDir}/node_modules`);
  }
  return sdks as Sdks;
}
