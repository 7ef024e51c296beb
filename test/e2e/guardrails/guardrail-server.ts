// A local guardrail speaking gw's generic HTTP contract (docs/guardrails.md), whose verdict the
// texts ask for: "forbidden-topic" blocks, "Alice Example" is rewritten to "[PERSON]",
// "slow-please" answers after 3 s, "garbage-please" answers something that is not JSON; anything
// else is allowed. Every request it was sent is kept for the test to read.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GuardrailRequest {
  version: number; guardrail: string; phase: string; operation: string;
  texts: Array<{ place: string; text: string }>;
  model: string | null; team: string; key_id: string | null; person: string | null; session: string | null; request_id: string;
  authorization: string | undefined;
}

export interface GuardrailServer { url: string; received: GuardrailRequest[]; close(): Promise<void> }

function verdictOf(texts: ReadonlyArray<{ text: string }>): { delayMs: number; body: string } {
  const all = texts.map((text) => text.text).join('\n');
  if (all.includes('garbage-please')) return { delayMs: 0, body: '<html>not a verdict</html>' };
  if (all.includes('slow-please')) return { delayMs: 3_000, body: JSON.stringify({ action: 'allow' }) };
  if (all.includes('forbidden-topic')) return { delayMs: 0, body: JSON.stringify({ action: 'block', reason: 'off-topic for this team' }) };
  if (all.includes('Alice Example')) {
    return { delayMs: 0, body: JSON.stringify({ action: 'rewrite', texts: texts.map((text) => (text.text.includes('Alice Example') ? text.text.replaceAll('Alice Example', '[PERSON]') : null)) }) };
  }
  return { delayMs: 0, body: JSON.stringify({ action: 'allow' }) };
}

export async function startGuardrailServer(): Promise<GuardrailServer> {
  const received: GuardrailRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<GuardrailRequest, 'authorization'>;
      received.push({ ...parsed, authorization: request.headers.authorization });
      const verdict = verdictOf(parsed.texts);
      const timer = setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(verdict.body);
      }, verdict.delayMs);
      response.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/judge`, received,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
