// Writes a fake provider's answer with the faults a test asked for. Each stream
// frame is its own write() after a pause, so a gateway that buffers is caught.
import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { FakeBehaviour, FakeJsonReply, FakeStreamReply } from './fake-provider-types.js';

export function writeJsonReply(response: ServerResponse, reply: FakeJsonReply, behaviour: FakeBehaviour): void {
  if (behaviour.resetAfterEvents !== undefined) {
    response.socket?.destroy();
    return;
  }
  const body = JSON.stringify(reply.body);
  response.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...reply.headers });
  if (behaviour.hangAfterEvents !== undefined) {
    response.flushHeaders(); // headers only, then silence
    return;
  }
  response.end(body);
}

type StreamStep = 'write' | 'hang' | 'reset' | 'malformed';

function chooseStep(index: number, behaviour: FakeBehaviour): StreamStep {
  if (behaviour.hangAfterEvents === index) return 'hang';
  if (behaviour.resetAfterEvents === index) return 'reset';
  if (behaviour.malformedSse === true && index === 1) return 'malformed';
  return 'write';
}

export async function writeStreamReply(response: ServerResponse, reply: FakeStreamReply, behaviour: FakeBehaviour, delayMs: number): Promise<void> {
  response.socket?.setNoDelay(true);
  response.writeHead(200, { 'content-type': reply.contentType, 'cache-control': 'no-cache', ...reply.headers });
  response.flushHeaders();
  if (reply.opening !== undefined) response.write(reply.opening);
  // One step past the last frame, so "hang/reset after all events" (before the end) works too.
  for (let index = 0; index <= reply.frames.length; index += 1) {
    if (index > 0) await delay(delayMs);
    if (response.destroyed) return;
    const step = chooseStep(index, behaviour);
    if (step === 'hang') return;
    if (step === 'reset') {
      response.socket?.destroy();
      return;
    }
    if (step === 'malformed') {
      response.end(reply.malformedFrame);
      return;
    }
    const frame = reply.frames[index];
    if (frame !== undefined) response.write(frame);
  }
  response.end(reply.closing ?? '');
}
