// A streamed image generation (gpt-image-1, stream: true) through a real `gw serve` child, the
// OpenAI SDK as the client and a local server speaking OpenAI's image streaming events: the
// record counts the images the completed events announce and prices their token usage from
// the dataset (text input 5 USD per million, image input 10, output 40), worked by hand below.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../../support/gateway-process.js';
import { auditRecord } from '../forwarding/support.js';

const UPSTREAM_KEY = 'sk-proj-fake-openai-image-stream-01';

/** https://platform.openai.com/docs/api-reference/images-streaming */
const EVENTS = [
  { type: 'image_generation.partial_image', b64_json: 'AAAA', partial_image_index: 0, size: '1024x1024', quality: 'low', background: 'opaque', output_format: 'png', created_at: 1 },
  {
    type: 'image_generation.completed', b64_json: 'BBBB', size: '1024x1024', quality: 'low', background: 'opaque', output_format: 'png', created_at: 2,
    usage: { input_tokens: 1_000, input_tokens_details: { image_tokens: 800, text_tokens: 200 }, output_tokens: 100, total_tokens: 1_100 },
  },
];

let fake: Server;
let gw: GatewayProcess;

beforeAll(async () => {
  fake = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.headers.authorization !== `Bearer ${UPSTREAM_KEY}`) return void response.writeHead(401).end();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of EVENTS) response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      response.end();
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v1`;
  gw = await startGatewayProcess({ env: { OPENAI_API_KEY: UPSTREAM_KEY, OPENAI_BASE_URL: url, GW_LOG_LEVEL: 'warn' } });
}, 30_000);

afterAll(async () => {
  await gw?.stop('SIGTERM');
  await new Promise((resolve) => fake?.close(resolve));
});

it('a streamed gpt-image-1 generation: one image, its tokens from the completed event, priced at 0.013 USD', async () => {
  const client = new OpenAI({ apiKey: gw.bootstrapKey!, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  const { data: stream, response } = await client.images.generate({ model: 'openai/gpt-image-1', prompt: 'a cat', stream: true, partial_images: 1 }).withResponse();
  const types: string[] = [];
  for await (const event of stream) types.push(event.type);
  expect(types).toEqual(['image_generation.partial_image', 'image_generation.completed']);
  const record = await auditRecord(gw.home, response.headers.get('x-request-id')!);
  expect(record.tokens).toMatchObject({ input: 1_000, output: 100, image_input: 800, images: 1 });
  // 200 text input × 5 + 800 image input × 10 + 100 output × 40, per million: 0.001 + 0.008 + 0.004.
  expect(record.cost).toEqual({ source: 'usage', nano_usd: 13_000_000, price: 'dataset', priced_as: 'gpt-image-1' });
  expect(record.data).toMatchObject({ image: { size: '1024x1024', quality: 'low' } });
});
