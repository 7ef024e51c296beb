// With no provider keys at all, Codex's Responses API still answers: the mock
// serves it through the translator (as Chat), streaming included.
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';

let gateway: GatewayProcess;
let client: OpenAI;
beforeAll(async () => {
  gateway = await startGatewayProcess();
  client = new OpenAI({ apiKey: gateway.bootstrapKey!, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
});
afterAll(async () => { await gateway?.stop(); });

it('answers responses.create on mock/echo', async () => {
  const response = await client.responses.create({ model: 'mock/echo', input: 'hello from codex' });
  expect(response.output_text).toBe('mock reply: hello from codex');
});

it('streams Responses events in order on mock/echo, ending with response.completed', async () => {
  const types: string[] = [];
  let sequence = -1;
  for await (const event of await client.responses.create({ model: 'mock/echo', input: 'stream please', stream: true })) {
    expect(event.sequence_number).toBeGreaterThan(sequence);
    sequence = event.sequence_number;
    types.push(event.type);
  }
  expect(types[0]).toBe('response.created');
  expect(types).toContain('response.output_text.delta');
  expect(types.at(-1)).toBe('response.completed');
});

it('calls the first tool on mock when tools are offered', async () => {
  const response = await client.responses.create({
    model: 'mock/echo', input: 'use the tool',
    tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} }, strict: false }],
  });
  expect(response.output.find((item) => item.type === 'function_call')).toMatchObject({ name: 'lookup', arguments: '{}' });
});
