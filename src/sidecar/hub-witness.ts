// The sidecar's push of its signed audit checkpoints to its hub (POST /audit/checkpoints),
// through the hub upstream wrapper, which adds whatever credential the sidecar holds; the
// hub names the sender from that credential. The same call serves an operator-configured
// HTTP witness (setting audit_witness = https://…), which gets the bare checkpoint.
import type { SignedCheckpoint } from '../audit/checkpoint.js';
import { cosignatureInAnswer } from '../audit/cosignature.js';
import type { WitnessAnswer, WitnessTarget } from '../audit/witness-pusher.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';

export const HUB_WITNESS_PATH = '/audit/checkpoints';
const SEND_TIMEOUT_MS = 10_000;
const ANSWER_LIMIT_BYTES = 16 * 1024;

async function readAnswer(body: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of body) {
    if (text.length < ANSWER_LIMIT_BYTES) text += String(chunk);
  }
  return text.slice(0, ANSWER_LIMIT_BYTES);
}

/** The message of a refusal in any of the error shapes gw answers in, or the status alone. */
function refusalOf(status: number, text: string): string {
  try {
    const value = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof value.error === 'object' ? value.error?.message : value.message ?? value.error;
    if (typeof message === 'string') return `${status}: ${message}`;
  } catch { /* not JSON */ }
  return `status ${status}`;
}

/** `instance`: this home's instance id, sent beside the checkpoint (`sender`) so the witness keeps its chains apart from other senders'. */
export function createHttpWitness(client: UpstreamClient, url: string, name: string, instance?: string): WitnessTarget {
  const sender = instance ? { sender: { instance } } : {};
  return {
    name,
    async send(checkpoint: SignedCheckpoint): Promise<WitnessAnswer> {
      const response = await client.send({
        url, method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...checkpoint, ...sender }), signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      const text = await readAnswer(response.body);
      if (response.status >= 200 && response.status < 300) return cosignatureInAnswer(text);
      // 409: the witness holds this trail under another key, or another record at this seq. Resending will not change that.
      if (response.status === 409) return { ok: false, refused: refusalOf(response.status, text) };
      throw new Error(refusalOf(response.status, text));
    },
  };
}

export function createHubWitness(hubUpstream: UpstreamClient, hub: string, instance?: string): WitnessTarget {
  const base = hub.replace(/\/+$/, '');
  return createHttpWitness(hubUpstream, `${base}${HUB_WITNESS_PATH}`, `hub ${base}`, instance);
}
