// Mock LLM upstream, run as its own process: OpenAI chat completions and Anthropic messages, JSON or
// SSE. Each SSE event is its own write, awaited, so it leaves as its own TCP segment like a real
// provider's (Node would otherwise gather back-to-back writes into one writev, flattering proxies).
// Env: PORT (0 = any); prints {"port":N} on stdout when listening.
import http from 'node:http';
import { anthropicMessages, openaiChat } from './fixtures.mjs';

const routes = { '/v1/chat/completions': openaiChat, '/v1/messages': anthropicMessages };
const streamRequested = /"stream"\s*:\s*true/; // the body is not parsed: the mock must stay cheap

function writeEvent(res, bytes) {
  return new Promise((resolve) => res.write(bytes, resolve));
}

const server = http.createServer((req, res) => {
  const route = req.method === 'POST' ? routes[req.url.split('?')[0]] : undefined;
  if (!route) {
    const found = req.url === '/health';
    res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
    res.end(found ? '{"ok":true}' : '{"error":{"message":"mock: unknown path","type":"invalid_request_error"}}');
    return;
  }
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', async () => {
    if (!streamRequested.test(Buffer.concat(parts).toString('latin1'))) {
      res.writeHead(200, { ...route.headers, 'content-type': 'application/json', 'content-length': route.json.length });
      res.end(route.json);
      return;
    }
    res.writeHead(200, { ...route.headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    for (const bytes of route.events) {
      if (res.destroyed) return;
      await writeEvent(res, bytes);
    }
    res.end();
  });
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 125_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
