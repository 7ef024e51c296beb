// The waiting half of `gw login` (RFC 8628 §3.4–3.5): poll at the server's
// interval, add 5 s for this and every later poll on slow_down, treat network
// errors as retryable until the code expires, and stop with a distinct reason
// for denied, expired and cancelled.
import { pollOnce, type DeviceAuthorization, type PollAnswer } from './hub-client.js';

export type LoginFailureReason = 'denied' | 'expired' | 'cancelled' | 'refused';

export class LoginFailure extends Error {
  constructor(readonly reason: LoginFailureReason, message: string) {
    super(message);
    this.name = 'LoginFailure';
  }
}

export interface WaitInput {
  fetch: typeof fetch;
  hub: string;
  authorization: DeviceAuthorization;
  userAgent: string;
  now: () => number;
  /** Resolves after `ms`, or rejects when the signal aborts (Ctrl-C). */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  signal: AbortSignal;
  onProgress: (event: { kind: 'waiting' | 'slow_down' | 'network'; secondsLeft: number; interval: number; detail?: string }) => void;
}

export type IssuedToken = Extract<PollAnswer, { kind: 'token' }>;

export async function waitForApproval(input: WaitInput): Promise<IssuedToken> {
  let interval = input.authorization.interval;
  const deadline = input.now() + input.authorization.expiresIn * 1000;
  const secondsLeft = () => Math.max(0, Math.round((deadline - input.now()) / 1000));
  for (;;) {
    try {
      await input.sleep(interval * 1000, input.signal);
    } catch {
      throw new LoginFailure('cancelled', 'login cancelled; nothing was stored');
    }
    if (input.now() >= deadline) throw new LoginFailure('expired', 'the code expired before it was approved: run gw login again');
    let answer: PollAnswer;
    try {
      answer = await pollOnce(input.fetch, input.hub, input.authorization.deviceCode, input.userAgent);
    } catch (error) {
      input.onProgress({ kind: 'network', secondsLeft: secondsLeft(), interval, detail: error instanceof Error ? error.message : String(error) });
      continue;
    }
    if (answer.kind === 'token') return answer;
    switch (answer.error) {
      case 'authorization_pending':
        input.onProgress({ kind: 'waiting', secondsLeft: secondsLeft(), interval });
        break;
      case 'slow_down':
        interval += 5;
        input.onProgress({ kind: 'slow_down', secondsLeft: secondsLeft(), interval });
        break;
      case 'access_denied':
        throw new LoginFailure('denied', deniedMessage(answer.description));
      case 'expired_token':
        throw new LoginFailure('expired', 'the code expired before it was approved: run gw login again');
      default:
        throw new LoginFailure('refused', `the hub refused the login (${answer.error}${answer.description ? `: ${answer.description}` : ''})`);
    }
  }
}

/** A sleep that Ctrl-C (the signal) cuts short. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(new Error('aborted')); };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The hub says who denied (src/hub/device-authorization.ts); an older hub says only that it was. */
function deniedMessage(description: string | undefined): string {
  // eslint-disable-next-line no-control-regex -- the hub's text reaches a terminal: its control characters are what must go
  const said = description?.replace(/[\x00-\x1f\x7f]/g, '').trim().replace(/\.$/, '');
  if (!said || said === 'The login was denied') return 'the login was denied (on the verification page, or by an admin with gw device deny)';
  return `${said[0]!.toLowerCase()}${said.slice(1)}`;
}
