// The floor for a Node gateway: node:http in, one undici Pool out, bytes passed through untouched
// (no parsing, no routing, SSE forwarded as it arrives). gw is judged against this in the same run.
// Env: PORT (0 = any), UPSTREAM (origin), CONNECTIONS (pool size). Prints {"port":N} when listening.
import http from 'node:http';
import { Pool } from 'undici';

// RFC 9110 §7.6.1: connection-specific headers are not forwarded; host is the upstream's.
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-connection', 'host']);
const pool = new Pool(process.env.UPSTREAM, { connections: Number(process.env.CONNECTIONS ?? 128), pipelining: 1, keepAliveTimeout: 60_000 });
const endToEnd = (headers) => {
  const kept = {};
  for (const name in headers) if (!hopByHop.has(name)) kept[name] = headers[name];
  return kept;
};

const server = http.createServer(async (req, res) => {
  try {
    const upstream = await pool.request({ path: req.url, method: req.method, headers: endToEnd(req.headers), body: req });
    res.writeHead(upstream.statusCode, endToEnd(upstream.headers));
    for await (const chunk of upstream.body) res.write(chunk);
    res.end();
  } catch (error) {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: String(error?.message ?? error), type: 'bad_gateway' } }));
  }
});
server.keepAliveTimeout = 120_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
