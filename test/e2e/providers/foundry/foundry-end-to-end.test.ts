// Claude on Microsoft Foundry through a real `gw serve`: a local server speaking the Anthropic
// Messages API under a Foundry resource's `/anthropic` root, with its own key. gw is configured
// with the Foundry SDK's variables only; the official SDKs call gw with a gw key.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../../../support/gateway-process.js';
import { startFakeProvider, type FakeProvider } from '../../../support/fake-providers/index.js';
import { auditRecord } from '../../forwarding/support.js';

const FOUNDRY_KEY = 'foundry-resource-key-1';
let foundry: FakeProvider;
let gw: GatewayProcess;

beforeAll(async () => {
  foundry = await startFakeProvider('anthropic', { apiKey: FOUNDRY_KEY, root: '/anthropic', eventDelayMs: 1 });
  gw = await startGatewayProcess({ env: { ANTHROPIC_FOUNDRY_API_KEY: FOUNDRY_KEY, ANTHROPIC_FOUNDRY_BASE_URL: `${foundry.url}/anthropic/`, GW_LOG_LEVEL: 'warn' } });
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  await foundry?.close();
});

function lastFoundryRequest() {
  const request = foundry.requests.at(-1)!;
  expect(request.path).toBe('/anthropic/v1/messages');
  expect(request.headers['x-api-key']).toBe(FOUNDRY_KEY);
  expect(request.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(JSON.stringify(request.headers)).not.toContain(gw.bootstrapKey);
  return request;
}

it('an Anthropic client\'s bare claude-* name goes to Foundry (no Anthropic configured), streamed and not, priced as Claude', async () => {
  const client = new Anthropic({ apiKey: gw.bootstrapKey, baseURL: gw.url, maxRetries: 0 });
  const { data, response } = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hello foundry' }] }).withResponse();
  expect(data.content).toEqual([{ type: 'text', text: 'echo: hello foundry' }]);
  expect(lastFoundryRequest().json).toMatchObject({ model: 'claude-sonnet-4-5' });
  const record = await auditRecord(gw.home, response.headers.get('x-request-id')!);
  expect(record).toMatchObject({ status: 200, provider: 'foundry' });
  expect(record.cost).toMatchObject({ price: 'dataset', nano_usd: expect.any(Number) });
  expect((record.cost as { nano_usd: number }).nano_usd).toBeGreaterThan(0);

  const stream = client.messages.stream({ model: 'foundry/claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'stream it' }] });
  expect((await stream.finalMessage()).content).toEqual([{ type: 'text', text: 'echo: stream it' }]);
  expect(lastFoundryRequest().json).toMatchObject({ model: 'claude-sonnet-4-5', stream: true });
});

it('an OpenAI client reaches Claude on Foundry through translation', async () => {
  const client = new OpenAI({ apiKey: gw.bootstrapKey, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  const completion = await client.chat.completions.create({ model: 'foundry/claude-sonnet-4-5', messages: [{ role: 'user', content: 'from openai' }] });
  expect(completion.choices[0]?.message.content).toBe('echo: from openai');
  expect(lastFoundryRequest().json).toMatchObject({ model: 'claude-sonnet-4-5', messages: [{ role: 'user' }] });
});

it('Foundry refusing the call is a clear error in the caller\'s format, recorded, with no key in it', async () => {
  foundry.setBehaviour({ status: 401, errorMessage: 'invalid x-api-key' }, { times: 1 });
  const response = await fetch(`${gw.url}/v1/messages`, {
    method: 'POST', headers: { 'x-api-key': gw.bootstrapKey, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'foundry/claude-sonnet-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }),
  });
  const text = await response.text();
  expect(response.status).toBe(401);
  expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  expect(text).not.toContain(FOUNDRY_KEY);
  const record = await auditRecord(gw.home, response.headers.get('x-request-id')!);
  expect(record).toMatchObject({ status: 401, provider: 'foundry' });
  expect(JSON.stringify(record)).not.toContain(FOUNDRY_KEY);
});
