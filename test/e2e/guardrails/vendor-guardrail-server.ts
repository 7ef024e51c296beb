// One local server speaking the published request and response shapes of the vendor guardrails gw
// calls: OpenAI's POST /v1/moderations, Lakera Guard's POST /v2/guard, Presidio's analyzer
// (POST /analyze) and anonymizer (POST /anonymize), and Bedrock's ApplyGuardrail
// (POST /guardrail/{id}/version/{v}/apply, whose SigV4 signature it checks by signing the same
// request again). What it finds: "violent-words" (moderation: violence), "ignore previous
// instructions" (Lakera: prompt_attack), "Alice Example" (Presidio: PERSON; Bedrock: a NAME it
// masks), "forbidden-topic" (Bedrock: a denied topic, blocked).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signBedrockRequest } from '../../../src/providers/bedrock/sign-request.js';

export interface VendorRequest { path: string; headers: http.IncomingHttpHeaders; body: Record<string, unknown> }
export interface VendorServer { url: string; received: VendorRequest[]; close(): Promise<void> }

export const BEDROCK_CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'guard-test-secret' };
const NAME = 'Alice Example';

type Answer = { status: number; body: unknown };

function moderation(body: Record<string, unknown>): Answer {
  const inputs = Array.isArray(body.input) ? body.input.map(String) : [];
  return {
    status: 200,
    body: { id: 'modr-1', model: body.model, results: inputs.map((text) => ({ flagged: text.includes('violent-words'), categories: { violence: text.includes('violent-words'), harassment: false }, category_scores: { violence: 0.9 } })) },
  };
}

function lakera(body: Record<string, unknown>): Answer {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const flagged = messages.some((message) => typeof message === 'object' && message !== null && 'content' in message && String(message.content).includes('ignore previous instructions'));
  return { status: 200, body: { flagged, metadata: { request_uuid: 'r-1' }, breakdown: [{ detector_type: 'prompt_attack', detected: flagged }, { detector_type: 'pii/email', detected: false }] } };
}

function analyze(body: Record<string, unknown>): Answer {
  const text = String(body.text ?? '');
  const at = text.indexOf(NAME);
  return { status: 200, body: at < 0 ? [] : [{ entity_type: 'PERSON', start: at, end: at + NAME.length, score: 0.85, analysis_explanation: null }] };
}

function anonymize(body: Record<string, unknown>): Answer {
  let text = String(body.text ?? '');
  const results = Array.isArray(body.analyzer_results) ? body.analyzer_results as Array<{ entity_type: string; start: number; end: number }> : [];
  for (const found of [...results].sort((left, right) => right.start - left.start)) text = `${text.slice(0, found.start)}<${found.entity_type}>${text.slice(found.end)}`;
  return { status: 200, body: { text, items: results.map((found) => ({ operator: 'replace', entity_type: found.entity_type })) } };
}

function applyGuardrail(body: Record<string, unknown>): Answer {
  const texts = (Array.isArray(body.content) ? body.content : []).map((block) => String((block as { text?: { text?: string } }).text?.text ?? ''));
  const usage = { topicPolicyUnits: 1, contentPolicyUnits: 1, wordPolicyUnits: 0, sensitiveInformationPolicyUnits: 1, sensitiveInformationPolicyFreeUnits: 0, contextualGroundingPolicyUnits: 0 };
  if (texts.some((text) => text.includes('forbidden-topic'))) {
    return { status: 200, body: { usage, action: 'GUARDRAIL_INTERVENED', actionReason: 'Guardrail blocked.', outputs: [{ text: 'Sorry, I cannot help with that.' }], assessments: [{ topicPolicy: { topics: [{ name: 'forbidden', type: 'DENY', action: 'BLOCKED' }] } }] } };
  }
  if (texts.some((text) => text.includes(NAME))) {
    return {
      status: 200,
      body: { usage, action: 'GUARDRAIL_INTERVENED', outputs: texts.map((text) => ({ text: text.replaceAll(NAME, '{NAME}') })), assessments: [{ sensitiveInformationPolicy: { piiEntities: [{ type: 'NAME', match: NAME, action: 'ANONYMIZED' }] } }] },
    };
  }
  return { status: 200, body: { usage, action: 'NONE', outputs: [], assessments: [] } };
}

/** The signature gw sent, checked by signing the same request again with the shared credentials at the time it names. */
async function signatureMatches(url: string, headers: http.IncomingHttpHeaders, body: string): Promise<boolean> {
  const date = String(headers['x-amz-date'] ?? '');
  const when = new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`);
  const again = await signBedrockRequest({ url, method: 'POST', headers: { 'content-type': 'application/json' }, body, region: 'eu-west-1', credentials: BEDROCK_CREDENTIALS, now: when });
  return again.authorization === headers.authorization;
}

export async function startVendorServer(): Promise<VendorServer> {
  const received: VendorRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void (async () => {
      const path = request.url ?? '/';
      const text = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(text) as Record<string, unknown>;
      received.push({ path, headers: request.headers, body });
      let answer: Answer = { status: 404, body: { message: 'no such path' } };
      if (path === '/v1/moderations') answer = moderation(body);
      else if (path === '/v2/guard') answer = lakera(body);
      else if (path === '/analyze') answer = analyze(body);
      else if (path === '/anonymize') answer = anonymize(body);
      else if (/^\/guardrail\/[^/]+\/version\/[^/]+\/apply$/.test(path)) {
        const signed = await signatureMatches(`http://${request.headers.host}${path}`, request.headers, text);
        answer = signed ? applyGuardrail(body) : { status: 403, body: { message: 'The request signature we calculated does not match the signature you provided.' } };
      }
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    })());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, received,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
