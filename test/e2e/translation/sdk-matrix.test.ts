// The SDK matrix of the translation issue: every official SDK client dialect ×
// provider dialect (openai, anthropic, gemini) × stream/non-stream × with/without
// tools, through a real `gw serve` child to fake providers speaking their real
// wire formats. Each cell asserts what the client received and what the provider
// received (its own dialect, at its own path, with the prompt and the tool).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../support/fake-providers/index.js';
import { startRig, type Rig } from '../forwarding/support.js';
import { CLIENT_MODULES, packageVersion, recordCells, type Capability } from '../../support/compat-matrix.js';
import { runToolRoundTrip, runTurn, type ClientDialect } from './sdk-clients.js';
import type { WireJson } from '../../support/wire-json.js';

let rig: Rig;
beforeAll(async () => { rig = await startRig({ eventDelayMs: 5 }); }, 60_000);
afterAll(async () => { await rig?.close(); });

const PROVIDERS = {
  openai: { model: 'openai/gpt-4o', path: /^\/v1\/(chat\/completions|responses)$/ },
  anthropic: { model: 'anthropic/claude-sonnet-4-5', path: /^\/v1\/messages$/ },
  gemini: { model: 'gemini/gemini-2.5-flash', path: /^\/v1beta\/models\/gemini-2\.5-flash:(generateContent|streamGenerateContent)$/ },
} as const;

const CLIENTS: ClientDialect[] = ['openai-chat', 'openai-responses', 'anthropic', 'genai'];

/** Each client's row in the compatibility matrix (docs/compatibility.md, npm run compat), with the version of the SDK it drives. */
const MATRIX_ROWS: Record<ClientDialect, { client: string; version: string }> = {
  'openai-chat': { client: 'OpenAI SDK (Chat)', version: packageVersion('openai', CLIENT_MODULES) },
  'openai-responses': { client: 'OpenAI SDK (Responses)', version: packageVersion('openai', CLIENT_MODULES) },
  anthropic: { client: 'Anthropic SDK', version: packageVersion('@anthropic-ai/sdk', CLIENT_MODULES) },
  genai: { client: 'Google GenAI SDK', version: packageVersion('@google/genai', CLIENT_MODULES) },
};

function capabilitiesOf(stream: boolean, tools: boolean): Capability[] {
  if (tools) return [];
  return [stream ? 'stream' : 'text'];
}

function toolNamesSeenBy(provider: keyof typeof PROVIDERS, request: RecordedRequest): string[] {
  const body = request.json as WireJson;
  if (provider === 'anthropic') return (body.tools ?? []).map((tool: { name: string }) => tool.name);
  if (provider === 'gemini') return (body.tools ?? []).flatMap((tool: { functionDeclarations?: Array<{ name: string }> }) => (tool.functionDeclarations ?? []).map((declaration) => declaration.name));
  return (body.tools ?? []).map((tool: { name?: string; function?: { name: string } }) => tool.function?.name ?? tool.name);
}

describe.each(CLIENTS)('%s client', (client) => {
  describe.each(Object.keys(PROVIDERS) as Array<keyof typeof PROVIDERS>)('→ %s provider', (providerName) => {
    const provider = PROVIDERS[providerName];
    it.each([
      { stream: false, tools: false }, { stream: true, tools: false }, { stream: false, tools: true }, { stream: true, tools: true },
    ])('stream $stream, tools $tools', async ({ stream, tools }) => {
      await recordCells({ ...MATRIX_ROWS[client], provider: providerName, capabilities: capabilitiesOf(stream, tools) }, async () => {
        const fake = rig[providerName];
        const before = fake.requests.length;
        const prompt = `matrix ${client} to ${providerName} ${stream ? 'streamed' : 'whole'} ${tools ? 'with tools' : 'plain'}`;
        const turn = await runTurn(client, { gwUrl: rig.gw.url, key: rig.key, model: provider.model, prompt, stream, tools });

        const sent = fake.requests.slice(before).find((request) => request.method === 'POST');
        expect(sent, 'the provider received the call').toBeDefined();
        expect(sent!.path).toMatch(provider.path);
        expect(JSON.stringify(sent!.json)).toContain(prompt);
        if (tools) {
          expect(turn.toolCalls).toEqual([{ name: 'lookup', arguments: { text: prompt } }]);
          expect(toolNamesSeenBy(providerName, sent!)).toEqual(['lookup']);
          // Translated into Gemini, the schema is cleaned; a GenAI client's own schema is forwarded as it sent it.
          if (providerName === 'gemini' && client !== 'genai') expect(JSON.stringify(sent!.json)).not.toMatch(/\$schema|additionalProperties/);
        } else {
          expect(turn.text).toBe(`echo: ${prompt}`);
        }
      });
    });

    it("a tool round trip: the call, the result sent back in the client's dialect, the final text", async () => {
      const fake = rig[providerName];
      const prompt = `round trip ${client} to ${providerName}`;
      await recordCells({ ...MATRIX_ROWS[client], provider: providerName, capabilities: ['tool round trip'] }, async () => {
        const before = fake.requests.length;
        const text = await runToolRoundTrip(client, { gwUrl: rig.gw.url, key: rig.key, model: provider.model, prompt });
        expect(text).toBe(`echo: ${prompt}`);
        const sent = fake.requests.slice(before).filter((request) => request.method === 'POST');
        expect(sent).toHaveLength(2);
        expect(sent[1]!.body).toContain('lookup result 42');
      });
    });
  });
});
