// The breaker in front of Redis (src/redis/circuit-breaker.ts), on fake timers: a Redis that
// answers nothing opens it after tripAfterMs, failing what is in flight and everything after at
// once; a slow Redis that still answers keeps it closed (a command it never answers fails alone);
// one probe at a time closes it again.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCircuitBreaker, RedisUnavailableError, type BreakerOptions } from '../../src/redis/circuit-breaker.js';

const TIMINGS = { tripAfterMs: 250, probeEveryMs: 200, giveUpAfterMs: 1_000 };

/** A command that answers when told to. */
function deferred<T = string>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => { resolve = yes; reject = no; });
  return { promise, resolve, reject };
}

function breakerWith(probe: BreakerOptions['probe']) {
  return createCircuitBreaker({ ...TIMINGS, probe });
}

/** Settles a promise into its outcome without letting a rejection go unhandled. */
function outcome<T>(promise: Promise<T>): { value?: T; error?: unknown; done: boolean } {
  const state: { value?: T; error?: unknown; done: boolean } = { done: false };
  promise.then((value) => { state.value = value; state.done = true; }, (error: unknown) => { state.error = error; state.done = true; });
  return state;
}

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); });

describe('circuit breaker', () => {
  it('a Redis that answers nothing opens it after tripAfterMs: the command in flight fails then, later ones at once without being sent', async () => {
    const breaker = breakerWith(() => new Promise(() => undefined));
    const opened = vi.fn();
    breaker.onOpen(opened);
    const frozen = outcome(breaker.run(() => new Promise(() => undefined)));
    await vi.advanceTimersByTimeAsync(240);
    expect(frozen.done).toBe(false);
    expect(breaker.isOpen()).toBe(false);
    await vi.advanceTimersByTimeAsync(20);
    expect(frozen.error).toBeInstanceOf(RedisUnavailableError);
    expect(breaker.isOpen()).toBe(true);
    expect(breaker.problem()).toBe('no answer for 250 ms');
    expect(opened).toHaveBeenCalledTimes(1);

    const sent = vi.fn(() => Promise.resolve('OK'));
    await expect(breaker.run(sent)).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(sent).not.toHaveBeenCalled();
    breaker.stop();
  });

  it('a slow Redis that still answers others stays closed; a command unanswered past giveUpAfterMs fails alone', async () => {
    const breaker = breakerWith(() => Promise.resolve('PONG'));
    const slow = deferred();
    const slowOutcome = outcome(breaker.run(() => slow.promise));
    // Other commands keep being answered every 100 ms: Redis is slow, not frozen.
    for (let elapsed = 0; elapsed < 600; elapsed += 100) {
      await breaker.run(() => Promise.resolve('OK'));
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(breaker.isOpen()).toBe(false);
    slow.resolve('late but fine');
    await vi.advanceTimersByTimeAsync(0);
    expect(slowOutcome.value).toBe('late but fine');

    const stuck = outcome(breaker.run(() => new Promise(() => undefined)));
    for (let elapsed = 0; elapsed < 1_100; elapsed += 100) {
      await breaker.run(() => Promise.resolve('OK')).catch(() => undefined);
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(stuck.error).toBeInstanceOf(RedisUnavailableError);
    expect((stuck.error as Error).message).toBe('redis: no answer within 1000 ms');
    expect(breaker.isOpen()).toBe(false);
    breaker.stop();
  });

  it('an answer already waiting when the timer fires is read first: a busy event loop is not a frozen Redis', async () => {
    const breaker = breakerWith(() => Promise.resolve('PONG'));
    const late = deferred();
    const result = outcome(breaker.run(() => late.promise));
    // The answer arrives in the same turn as the timer (before the check that follows it).
    setTimeout(() => late.resolve('OK'), 250);
    await vi.advanceTimersByTimeAsync(260);
    expect(result.value).toBe('OK');
    expect(breaker.isOpen()).toBe(false);
    breaker.stop();
  });

  it('an error reply is an answer (stays closed); a connection error opens it at once and fails every command in flight', async () => {
    const breaker = breakerWith(() => Promise.resolve('PONG'));
    const scriptError = Object.assign(new Error('ERR script failed'), { name: 'ReplyError' });
    await expect(breaker.run(() => Promise.reject(scriptError))).rejects.toBe(scriptError);
    expect(breaker.isOpen()).toBe(false);

    const inFlight = [outcome(breaker.run(() => new Promise(() => undefined))), outcome(breaker.run(() => new Promise(() => undefined)))];
    await expect(breaker.run(() => Promise.reject(new Error('Connection is closed.')))).rejects.toThrow('Connection is closed.');
    await vi.advanceTimersByTimeAsync(0);
    expect(breaker.isOpen()).toBe(true);
    for (const command of inFlight) expect(command.error).toBeInstanceOf(RedisUnavailableError);
    breaker.stop();
  });

  it('while open: one probe at a time every probeEveryMs; its answer closes the breaker and commands run again', async () => {
    const probes: Array<ReturnType<typeof deferred>> = [];
    const breaker = breakerWith(() => { const probe = deferred(); probes.push(probe); return probe.promise; });
    const closed = vi.fn();
    breaker.onClose(closed);
    breaker.trip('connection closed');
    await vi.advanceTimersByTimeAsync(199);
    expect(probes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(probes).toHaveLength(1);
    // A probe that hangs (Redis still frozen) is not joined by others.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(probes).toHaveLength(1);
    // It fails (the connection is still down): the next one follows probeEveryMs later.
    probes[0]!.reject(new Error('Connection is closed.'));
    await vi.advanceTimersByTimeAsync(200);
    expect(probes).toHaveLength(2);
    expect(breaker.isOpen()).toBe(true);
    probes[1]!.resolve('PONG');
    await vi.advanceTimersByTimeAsync(0);
    expect(breaker.isOpen()).toBe(false);
    expect(closed).toHaveBeenCalledTimes(1);
    await expect(breaker.run(() => Promise.resolve('OK'))).resolves.toBe('OK');
    breaker.stop();
  });

  it('a new connection that was answered closes it without waiting for a probe', async () => {
    const probe = vi.fn(() => new Promise(() => undefined));
    const breaker = breakerWith(probe);
    const closed = vi.fn();
    breaker.onClose(closed);
    breaker.trip('connection closed');
    breaker.close();
    expect(breaker.isOpen()).toBe(false);
    expect(closed).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(probe).not.toHaveBeenCalled();
    breaker.stop();
  });
});
