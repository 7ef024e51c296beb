// Codex's first choice, the Responses WebSocket, through gw to an Anthropic-dialect
// provider: Codex offers apply_patch (a `custom` tool with free-form input, or a
// function on older model families), the provider calls it with a real patch, gw
// hands it back as Codex expects it, Codex applies the edit in its working folder,
// and the turn ends. Every turn went over the socket (audit data.transport).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRig, stopAndVerify, type Rig } from '../forwarding/support.js';
import { runGwSetup as runGw } from '../../support/gateway-process.js';
import { readAudit, sleep } from '../helpers.js';
import { packageVersion, recordCells } from '../../support/compat-matrix.js';
import { CODING_TOOLS_DIR, missingTools, runCodingTool } from './run-coding-tool.js';

const CODEX_MODEL = 'gpt-5.5';
const PATCH = '*** Begin Patch\n*** Add File: hello.txt\n+hello from gw\n*** End Patch\n';

let rig: Rig;
beforeAll(async () => {
  if (missingTools().includes('codex')) throw new Error(`codex missing in ${CODING_TOOLS_DIR}; run bash scripts/ensure-test-deps.sh`);
  // A model Codex knows (it offers apply_patch only to those), routed by gw to Claude.
  rig = await startRig({
    eventDelayMs: 2,
    prepareHome: async (home) => {
      const added = await runGw(['routes', 'add', CODEX_MODEL, '--target', 'anthropic/claude-sonnet-4-5', '--home', home]);
      if (added.code !== 0) throw new Error(added.stderr);
    },
  });
}, 60_000);
afterAll(async () => { if (rig) await stopAndVerify(rig); await rig?.close(); });

it('Codex over the WebSocket completes an apply_patch edit against an Anthropic-dialect provider', async () => {
  const row = { client: 'Codex (Responses WebSocket)', version: packageVersion('@openai/codex', `${CODING_TOOLS_DIR}/node_modules`), provider: 'anthropic' as const };
  await recordCells({ ...row, capabilities: ['text', 'stream', 'tool round trip'] }, () => applyPatchOverWebSocket());
}, 150_000);

async function applyPatchOverWebSocket(): Promise<void> {
  rig.anthropic.setBehaviour({ toolCall: { name: 'apply_patch', input: { input: PATCH } } });
  let written: string | null = null;
  const run = await runCodingTool('codex', {
    gwUrl: rig.gw.url, key: rig.key, model: CODEX_MODEL, prompt: 'create hello.txt', codexWebSocket: true, codexWrites: true,
    inspectWorkDir: async (dir) => { written = await readFile(path.join(dir, 'hello.txt'), 'utf8').catch(() => null); },
  });
  rig.anthropic.setBehaviour(undefined);
  const requests = rig.anthropic.requests.filter((request) => request.path === '/v1/messages');
  const audit = (await readAudit(rig.gw.home)).filter((line) => line.kind === "request").map((line) => `${String(line.status)} ${String(line.provider)} ${JSON.stringify(line.outcome)} ${JSON.stringify(line.data)}`).join("\n");
  const detail = `${audit}\nexit ${run.code}\nstdout: ${run.stdout.slice(-2000)}\nstderr: ${run.stderr.slice(-2000)}`;
  expect(run.code, detail).toBe(0);
  expect(written, detail).toBe('hello from gw\n');
  // The provider got the tool as a function and, on the second turn, the patch's result.
  const offered = (requests[0]!.json as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
  expect(offered).toContain('apply_patch');
  const last = requests.at(-1)!.json as { messages: Array<{ content: unknown }> };
  expect(JSON.stringify(last.messages.at(-1)!.content)).toContain('tool_result');
  await sleep(300);
  const turns = (await readAudit(rig.gw.home)).filter((line) => line.kind === 'request' && line.operation === 'responses.create');
  expect(turns.length).toBeGreaterThanOrEqual(2);
  for (const turn of turns) expect(turn.data, JSON.stringify(turn)).toMatchObject({ transport: 'websocket' });
}
