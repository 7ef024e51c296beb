// A realistic floor: what any Node gateway built on fastify + undici pays before doing
// anything of its own. It parses the JSON body, reads model and stream, re-serialises
// the body, parses a JSON answer for its usage and serialises it again; SSE is written
// chunk by chunk. gw minus this is gw's own cost (auth, audit, DLP, policy, logs, metrics).
// Env: PORT (0 = any), UPSTREAM (origin). Prints {"port":N} when listening.
import Fastify from 'fastify';
import { Pool } from 'undici';

const pool = new Pool(process.env.UPSTREAM, { connections: 128, pipelining: 1, keepAliveTimeout: 60_000 });
const app = Fastify({ logger: false, bodyLimit: 32 * 1024 * 1024 });

app.post('/v1/*', async (request, reply) => {
  const body = request.body;
  if (typeof body?.model !== 'string') return reply.code(400).send({ error: { message: 'model is required' } });
  const upstream = await pool.request({
    path: request.url, method: 'POST', body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'anthropic-version': request.headers['anthropic-version'] ?? '2023-06-01' },
  });
  if (body.stream === true) {
    reply.hijack();
    reply.raw.writeHead(upstream.statusCode, { 'content-type': upstream.headers['content-type'] ?? 'text/event-stream' });
    for await (const chunk of upstream.body) reply.raw.write(chunk);
    reply.raw.end();
    return reply;
  }
  const answer = await upstream.body.json();
  return reply.code(upstream.statusCode).send(answer);
});

app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' }).then(() => console.log(JSON.stringify({ port: app.server.address().port })));
