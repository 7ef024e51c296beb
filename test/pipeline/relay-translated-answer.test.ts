// Stage 7 on a translated JSON answer: output DLP reads the canonical parts the client's encoder
// wrote the answer from (as the translated stream does), never parses the encoded bytes again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AssistantPart } from '../../src/canonical/request.js';
import type { CanonicalResponse } from '../../src/canonical/response.js';
import { createDlpResolver } from '../../src/dlp/dlp-config.js';
import { GatewayError } from '../../src/errors.js';
import { codecFor } from '../../src/formats/codec-registry.js';
import type { TargetReply } from '../../src/pipeline/relay/target-reply.js';
import type { InboundCall } from '../../src/pipeline/decode/read-inbound-call.js';
import type { GatewayServices } from '../../src/pipeline/gateway-services.js';
import type { Governed } from '../../src/pipeline/govern/govern-request.js';
import { relayReply } from '../../src/pipeline/relay/relay-reply.js';
import type { RequestTrace } from '../../src/pipeline/request-trace.js';
import { ClientCancel } from '../../src/upstream/cancel-signal.js';
import { SAMPLES } from '../dlp/samples.js';

function governed(outputScan: boolean): Governed {
  const dlp = createDlpResolver().resolve([{ scope: '*', output_scan: outputScan }], 'team', null);
  return { policies: [], dlp, directKey: null, settle: () => undefined };
}

/** The trace's part stage 7 touches on this path: the output DLP counts. */
function trace(): { trace: RequestTrace; dlp: string[] } {
  const dlp: string[] = [];
  const fake = { tokens: null, noteDlp: (id: string) => { dlp.push(id); } };
  return { trace: fake as unknown as RequestTrace, dlp };
}

function answered(content: AssistantPart[]): TargetReply {
  const answer: CanonicalResponse = {
    id: 'r1', model: 'm', content, finishReason: { unified: 'stop' }, usage: { inputTokens: 3, outputTokens: 5 }, extensions: {},
  };
  const body = Buffer.from(JSON.stringify(codecFor('openai-chat').encodeResponse(answer, { ids: () => 'id', now: () => 0 })));
  return { kind: 'answered', status: 200, response: { status: 200, headers: { 'content-type': 'application/json' }, body }, answer, discard: () => undefined };
}

async function relay(reply: TargetReply, outputScan: boolean, into = trace()): Promise<unknown> {
  const call = { dialect: 'openai', operation: 'chat' } as unknown as InboundCall;
  return relayReply(reply, call, governed(outputScan), {} as GatewayServices, new ClientCancel(), into.trace);
}

describe('relayReply, a translated JSON answer', () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it('blocks a secret in the answer text without parsing the encoded bytes again', async () => {
    const parse = vi.spyOn(JSON, 'parse');
    const reply = answered([{ type: 'text', text: `here: ${SAMPLES.githubPat}` }]);
    await expect(relay(reply, true)).rejects.toThrow(expect.objectContaining({ code: 'GW_ERR_DLP_BLOCKED' }) as GatewayError);
    expect(parse).not.toHaveBeenCalled();
  });

  it('finds a secret split across two parts, and in tool arguments', async () => {
    const half = SAMPLES.githubPat.length / 2;
    await expect(relay(answered([{ type: 'text', text: `a ${SAMPLES.githubPat.slice(0, half)}` }, { type: 'text', text: `${SAMPLES.githubPat.slice(half)} b` }]), true))
      .rejects.toThrow(/DLP rule "github/);
    await expect(relay(answered([{ type: 'tool-call', id: 't1', name: 'shell', arguments: JSON.stringify({ token: SAMPLES.githubPat }) }]), true))
      .rejects.toThrow(/DLP rule "github/);
  });

  it('counts a logged match, and relays the bytes unchanged', async () => {
    const reply = answered([{ type: 'reasoning', text: 'think' }, { type: 'text', text: `mail ${SAMPLES.email}` }]);
    const into = trace();
    const parse = vi.spyOn(JSON, 'parse');
    const response = await relay(reply, true, into);
    expect(parse).not.toHaveBeenCalled();
    expect(into.dlp).toEqual(['output.email']);
    expect(response).toBe(reply.kind === 'answered' ? reply.response : null);
  });

  it('with output DLP off, nothing is scanned', async () => {
    const into = trace();
    await relay(answered([{ type: 'text', text: SAMPLES.githubPat }]), false, into);
    expect(into.dlp).toEqual([]);
  });
});
