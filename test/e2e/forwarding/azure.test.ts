// Azure OpenAI as the only OpenAI-format provider (AZURE_OPENAI_API_KEY +
// AZURE_OPENAI_ENDPOINT, no OPENAI_API_KEY): the AzureOpenAI client's deployment
// route and bare gpt- names from the plain OpenAI client both reach the fake's
// Azure route (/openai/deployments/{name}/chat/completions?api-version=…) with
// the Azure key in api-key.
import OpenAI, { AzureOpenAI } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRecord, expectUpstreamCredentials, last, startRig, stopAndVerify, type Rig } from './support.js';

let rig: Rig;

beforeAll(async () => { rig = await startRig({ azure: true, withoutOpenAi: true, eventDelayMs: 50 }); }, 30_000);
afterAll(async () => { await rig?.close(); });

describe('Azure OpenAI', () => {
  it('AzureOpenAI client, non-streaming: deployment route, api-version and api-key', async () => {
    const azure = new AzureOpenAI({ endpoint: rig.gw.url, apiKey: rig.key, deployment: 'gpt-4o', apiVersion: '2024-10-21', maxRetries: 0 });
    const { data, response } = await azure.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello azure' }] }).withResponse();
    expect(data.choices[0]?.message.content).toBe('echo: hello azure');
    expect(data.model).toBe('gpt-4o');
    const upstream = last(rig.azure!);
    expect(upstream.path).toBe('/openai/deployments/gpt-4o/chat/completions');
    expect(upstream.query).toEqual({ 'api-version': '2024-10-21' });
    expectUpstreamCredentials(upstream, 'azure', rig.azure!, rig.key);
    expect(rig.openai.requests).toEqual([]);
    expect(await auditRecord(rig.gw.home, response.headers.get('x-request-id')!)).toMatchObject({
      model: 'gpt-4o', provider: 'azure', status: 200, tokens: { input: data.usage!.prompt_tokens, output: data.usage!.completion_tokens },
    });
  });

  it('AzureOpenAI client, streaming, arrives incrementally', async () => {
    const azure = new AzureOpenAI({ endpoint: rig.gw.url, apiKey: rig.key, deployment: 'gpt-4o', apiVersion: '2024-10-21', maxRetries: 0 });
    const stream = await azure.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'one two three four five six' }], stream: true });
    const arrivals: number[] = [];
    let text = '';
    for await (const chunk of stream) { arrivals.push(Date.now()); text += chunk.choices[0]?.delta?.content ?? ''; }
    expect(text).toBe('echo: one two three four five six');
    const closedAt = await rig.azure!.waitForClose(last(rig.azure!));
    expect(arrivals[0]!).toBeLessThan(closedAt - 200);
    expectUpstreamCredentials(last(rig.azure!), 'azure', rig.azure!, rig.key);
  });

  it('the plain OpenAI client with a bare gpt- name is routed to Azure (deployment named after the model)', async () => {
    const client = new OpenAI({ apiKey: rig.key, baseURL: `${rig.gw.url}/v1`, maxRetries: 0 });
    const result = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'plain client' }] });
    expect(result.choices[0]?.message.content).toBe('echo: plain client');
    expect(last(rig.azure!).path).toBe('/openai/deployments/gpt-4o/chat/completions');
    expect(last(rig.azure!).query['api-version']).toBe('2024-10-21');
    expect(rig.openai.requests).toEqual([]);
  });
});

describe('audit trail', () => {
  it('gw stops cleanly and gw audit verify exits 0', async () => { await stopAndVerify(rig); }, 20_000);
});
