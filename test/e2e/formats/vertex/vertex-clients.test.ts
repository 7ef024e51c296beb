// Vertex AI as a client format (issue 41): a fleet set up for Vertex points at gw unchanged.
// Real Claude Code with CLAUDE_CODE_USE_VERTEX=1 (gw as ANTHROPIC_VERTEX_BASE_URL) completes a
// turn with a tool call through a real `gw serve` to the local Anthropic-shaped fake, and the
// Google GenAI SDK in Vertex mode (vertexai: true, gw as its base URL) generates and streams
// through it to the Gemini-shaped fake. Each call is in the trail under its Vertex route, with
// the caller's key; what reaches the provider is the first-party call (model in the body, no
// anthropic_version), with Claude Code's anthropic-beta and anthropic-version unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../../support/fake-providers/index.js';
import type { WireJson } from '../../../support/wire-json.js';
import { runGwSetup } from '../../../support/gateway-process.js';
import { startRig, type Rig } from '../../forwarding/support.js';
import { readAudit, waitUntil, type AuditLine } from '../../helpers.js';
import { CODING_TOOLS_DIR, missingTools, runCodingTool } from '../../coding-tools/run-coding-tool.js';
import { CLIENT_MODULES, packageVersion, recordCells } from '../../../support/compat-matrix.js';
import { loadSdks } from '../../../support/compat-clients.js';

// The pinned GenAI SDK, or the one GW_COMPAT_CLIENTS_DIR names (npm run compat:latest).
const { GoogleGenAI } = await loadSdks();

const ANTHROPIC_ROUTE = '/v1/projects/:project/locations/:location/publishers/anthropic/models/*';
const GOOGLE_ROUTE = '/v1beta1/projects/:project/locations/:location/publishers/google/models/*';

let rig: Rig;
beforeAll(async () => {
  if (missingTools().includes('claude')) throw new Error('Claude Code is missing: run bash scripts/ensure-test-deps.sh');
  rig = await startRig({ eventDelayMs: 5 });
}, 60_000);
afterAll(async () => { await rig?.close(); });

const promptOf = (label: string) => `vertex e2e ${label} ${Math.random().toString(36).slice(2, 8)}`;
const carrying = (requests: RecordedRequest[], text: string) => requests.filter((request) => request.method === 'POST' && request.body.includes(text));

/** A key of its own for each test, so its records are told apart (a retried test's too). */
async function freshKey(name: string): Promise<{ key: string; id: string }> {
  const result = await runGwSetup(['keys', 'create', '--team', 'local', '--name', `${name}-${Math.random().toString(36).slice(2, 8)}`], { home: rig.gw.home });
  const out = `${result.stdout}${result.stderr}`;
  const key = /sk-gw-\w+/.exec(out)?.[0];
  const id = /vk_\w+/.exec(out)?.[0];
  if (result.code !== 0 || !key || !id) throw new Error(`gw keys create failed:\n${out}`);
  return { key, id };
}

/** The audit records of `keyId`'s calls on `route`, once `count` of them are written (each when its response closes). */
async function recordsOf(route: string, keyId: string, count: number): Promise<AuditLine[]> {
  let found: AuditLine[] = [];
  await waitUntil(async () => {
    found = (await readAudit(rig.gw.home)).filter((line) => line.kind === 'request' && line.route === route && line.key_id === keyId);
    return found.length >= count;
  }, { timeoutMs: 10_000, what: `${count} records of ${route}` });
  return found;
}

describe('Claude Code in Vertex mode', () => {
  // Its row in the compatibility matrix (docs/compatibility.md): a turn streams text and makes a tool round trip.
  const row = { client: 'Claude Code (Vertex)', version: packageVersion('@anthropic-ai/claude-code', `${CODING_TOOLS_DIR}/node_modules`), provider: 'anthropic' as const };
  it('completes a turn with a tool call through gw to an Anthropic provider, the calls in the trail', () => recordCells({ ...row, capabilities: ['text', 'stream', 'tool round trip'] }, async () => {
    const prompt = promptOf('claude');
    const { key, id: keyId } = await freshKey('claude-vertex');
    const run = await runCodingTool('claude', {
      gwUrl: rig.gw.url, key, model: 'claude-sonnet-4-5@20250929', prompt, vertex: { project: 'acme-proj', region: 'us-east5' },
    });
    const mine = carrying(rig.anthropic.requests, prompt);
    const context = `exit ${run.code}\nstdout: ${run.stdout.slice(-2000)}\nstderr: ${run.stderr.slice(-2000)}\nprovider saw: ${mine.map((request) => request.path).join(', ')}`;
    expect(run.code, context).toBe(0);
    expect(run.finalText, context).toContain(prompt);
    // The fake called Claude Code's first tool and got its result: at least two model calls, each a first-party Messages call.
    expect(mine.length, context).toBeGreaterThanOrEqual(2);
    for (const request of mine) {
      expect(request.path).toBe('/v1/messages');
      const body = request.json as WireJson;
      expect(body.model).toBe('claude-sonnet-4-5-20250929');
      expect(body).not.toHaveProperty('anthropic_version');
      expect(body.stream).toBe(true);
      expect(request.headers['anthropic-version']).toBe('2023-06-01');
      expect(String(request.headers['anthropic-beta'])).toContain('claude-code-20250219');
      // The upstream key replaced the caller's gw key.
      expect(JSON.stringify(request.headers)).not.toContain(key);
    }
    const last = mine.at(-1)?.json as WireJson | undefined;
    expect(JSON.stringify(last?.messages)).toContain('tool_result');
    const records = await recordsOf(ANTHROPIC_ROUTE, keyId, mine.length);
    expect(records).toHaveLength(mine.length);
    expect(records.at(-1)).toMatchObject({ status: 200, family: 'anthropic', model: 'claude-sonnet-4-5-20250929', provider: 'anthropic', key_id: keyId });
  }), 110_000);
});

describe('the Google GenAI SDK in Vertex mode', () => {
  // With project and location the SDK asks its Google auth client for a header; an apiKey there is sent as x-goog-api-key.
  const client = (apiKey: string) => new GoogleGenAI({
    vertexai: true, project: 'acme-proj', location: 'us-central1',
    httpOptions: { baseUrl: rig.gw.url }, googleAuthOptions: { apiKey },
  });

  const row = { client: 'Google GenAI SDK (Vertex)', version: packageVersion('@google/genai', CLIENT_MODULES), provider: 'gemini' as const };
  it('generateContent and generateContentStream reach the Gemini provider and come back', () => recordCells({ ...row, capabilities: ['text', 'stream'] }, async () => {
    const prompt = promptOf('genai');
    const { key, id: keyId } = await freshKey('genai-vertex');
    const answer = await client(key).models.generateContent({ model: 'gemini-2.5-flash', contents: prompt });
    expect(answer.text).toContain(prompt);
    let streamed = '';
    let chunks = 0;
    for await (const chunk of await client(key).models.generateContentStream({ model: 'gemini-2.5-flash', contents: `${prompt} stream` })) {
      streamed += chunk.text ?? '';
      chunks += 1;
    }
    expect(streamed).toContain(`${prompt} stream`);
    expect(chunks).toBeGreaterThan(1);
    const paths = carrying(rig.gemini.requests, prompt).map((request) => request.path);
    expect(paths).toEqual(['/v1beta/models/gemini-2.5-flash:generateContent', '/v1beta/models/gemini-2.5-flash:streamGenerateContent']);
    const records = await recordsOf(GOOGLE_ROUTE, keyId, 2);
    expect(records.map((record) => [record.status, record.family, record.model, record.key_id])).toEqual([
      [200, 'google', 'gemini-2.5-flash', keyId], [200, 'google', 'gemini-2.5-flash', keyId],
    ]);
  }), 30_000);

  it('a refusal comes back as a Google error the SDK reads', async () => {
    await expect(client('sk-gw-not-a-key').models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })).rejects.toMatchObject({ status: 401 });
  });
});
