// An allow-all guardrail speaking gw's generic HTTP contract (docs/guardrails.md), for
// BENCH_GUARDRAIL=1: it reads the request whole and answers {"action":"allow"}. Env: PORT (0 = any).
// Prints {"port":N} when listening.
import http from 'node:http';

const allow = JSON.stringify({ action: 'allow' });
const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(allow) });
    response.end(allow);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
