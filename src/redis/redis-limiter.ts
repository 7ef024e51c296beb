// Requests and tokens per minute in Redis/Valkey, shared by every instance (issue 15).
// One Lua script checks every limit of a call and reserves it in the same atomic step
// (calls arriving together share one run of it, each checked in turn), on Redis's clock: a call takes 1 request and its token estimate, and settle() later
// moves the tokens to what the provider reported. N instances therefore admit exactly
// what one would; tokens overshoot only by the estimate's error.
//
// A scope's window is one hash, `gw:rl:<scope>`, with a field per second (`r<sec>`
// requests, `t<sec>` tokens); fields older than 60 s are dropped as the script reads them.
//
// Each run carries a deadline on Redis's clock (RedisConnection.deadline): a run that Redis reaches
// only after its sender gave up (it was queued while Redis was frozen) does nothing, so a replay
// after a freeze cannot top a window up with calls that were already served under the fail mode.
import type { RedisConnection } from './redis-connection.js';
import type { Admission, LimitRefusal, LimitSpec, Limiter } from '../policy/rate-limiter.js';

const WINDOW_SECONDS = 60;

// Admits a batch of calls in order, each as if alone (its checks see the calls before it).
// ARGV: deadline (ms, -1: none), calls, then per call: estimate, specs, then per spec: scope, rpm (-1: none), tpm (-1: none), shadow (1/0).
// Returns: now, then per call: refusals, then per refusal: spec index, kind (r|t), retry-after seconds, used.
// Past the deadline: { -1 } and nothing counted.
const ADMIT = `
local t = redis.call('TIME')
local now = tonumber(t[1])
local deadline = tonumber(ARGV[1])
if deadline >= 0 and now * 1000 + math.floor(tonumber(t[2]) / 1000) > deadline then return { -1 } end
local out = { now }
local at = 3
for call = 1, tonumber(ARGV[2]) do
  local estimate = tonumber(ARGV[at])
  local count = tonumber(ARGV[at + 1])
  local first = at + 2
  at = first + count * 4
  local refusals = {}
  local enforced = false
  for i = 0, count - 1 do
    local base = first + i * 4
    local key = 'gw:rl:' .. ARGV[base]
    local rpm = tonumber(ARGV[base + 1])
    local tpm = tonumber(ARGV[base + 2])
    local shadow = ARGV[base + 3] == '1'
    local fields = redis.call('HGETALL', key)
    local requests, tokens, oldest = 0, 0, nil
    for j = 1, #fields, 2 do
      local name = fields[j]
      local second = tonumber(string.sub(name, 2))
      if second <= now - ${WINDOW_SECONDS} then
        redis.call('HDEL', key, name)
      elseif string.sub(name, 1, 1) == 'r' then
        local value = tonumber(fields[j + 1])
        requests = requests + value
        if value > 0 and (oldest == nil or second < oldest) then oldest = second end
      else
        tokens = tokens + tonumber(fields[j + 1])
      end
    end
    local retry = ${WINDOW_SECONDS}
    if oldest ~= nil then retry = oldest + ${WINDOW_SECONDS} - now end
    if rpm >= 0 and requests >= rpm then
      table.insert(refusals, i); table.insert(refusals, 'r'); table.insert(refusals, retry); table.insert(refusals, requests)
      if not shadow then enforced = true end
    elseif tpm >= 0 and requests > 0 and tokens + estimate > tpm then
      table.insert(refusals, i); table.insert(refusals, 't'); table.insert(refusals, retry); table.insert(refusals, tokens)
      if not shadow then enforced = true end
    end
  end
  if not enforced then
    for i = 0, count - 1 do
      local key = 'gw:rl:' .. ARGV[first + i * 4]
      redis.call('HINCRBY', key, 'r' .. now, 1)
      redis.call('HINCRBY', key, 't' .. now, estimate)
      redis.call('EXPIRE', key, ${WINDOW_SECONDS + 1})
    end
  end
  table.insert(out, #refusals / 4)
  for _, value in ipairs(refusals) do table.insert(out, value) end
end
return out
`;

// ARGV: second, delta, scopes…: corrects the reserved tokens where the second is still in the window.
const SETTLE = `
for i = 3, #ARGV do
  local key = 'gw:rl:' .. ARGV[i]
  if redis.call('HEXISTS', key, 't' .. ARGV[1]) == 1 then redis.call('HINCRBY', key, 't' .. ARGV[1], tonumber(ARGV[2])) end
end
return 1
`;

export interface RedisLimiter extends Limiter {
  close(): Promise<void>;
}

/** `failMode` is read per call: the setting limits_when_redis_down. */
export function createRedisLimiter(connection: RedisConnection, failMode: () => 'open' | 'closed'): RedisLimiter {
  const redis = connection.client;
  redis.defineCommand('gwAdmit', { numberOfKeys: 0, lua: ADMIT });
  redis.defineCommand('gwSettle', { numberOfKeys: 0, lua: SETTLE });
  const commands = redis as unknown as {
    gwAdmit(...args: Array<string | number>): Promise<Array<number | string>>;
    gwSettle(...args: Array<string | number>): Promise<unknown>;
  };

  // Calls admitted in the same turn of the event loop share one script run (one round trip,
  // one command to encode and parse), each still checked and reserved in order, atomically.
  let waiting: Pending[] = [];
  const flush = async () => {
    const batch = waiting;
    waiting = [];
    let reply: Array<number | string>;
    try {
      const args = batch.flatMap((call) => [call.estimate, call.specs.length, ...call.specs.flatMap((spec) => [spec.scope, spec.requestsPerMinute ?? -1, spec.tokensPerMinute ?? -1, spec.shadow ? 1 : 0])]);
      reply = await connection.run(() => commands.gwAdmit(connection.deadline(), batch.length, ...args));
    } catch {
      for (const call of batch) call.resolve(unavailable(call.specs, failMode()));
      return;
    }
    const second = Number(reply[0]);
    // Reached too late to count (the sender's breaker gave up on it): nothing was counted.
    if (second < 0) {
      for (const call of batch) call.resolve(unavailable(call.specs, failMode()));
      return;
    }
    let at = 1;
    for (const call of batch) {
      const count = Number(reply[at]);
      const refusals: LimitRefusal[] = [];
      for (let index = at + 1; index < at + 1 + count * 4; index += 4) refusals.push(describeRefusal(call, reply.slice(index, index + 4)));
      at += 1 + count * 4;
      call.resolve(admitted(call, refusals, second));
    }
  };
  const admitted = (call: Pending, refusals: LimitRefusal[], second: number): Admission => {
    if (refusals.some((refusal) => !refusal.shadow)) return { refusals, settle: () => {} };
    let settled = false;
    return {
      refusals,
      settle: (actual) => {
        if (settled || actual === undefined || actual === call.estimate) return;
        settled = true;
        void connection.run(() => commands.gwSettle(second, actual - call.estimate, ...call.specs.map((spec) => spec.scope))).catch(() => undefined);
      },
    };
  };

  return {
    admit(specs, estimatedTokens): Promise<Admission> | Admission {
      const limited = specs.filter((spec) => spec.requestsPerMinute !== undefined || spec.tokensPerMinute !== undefined);
      if (limited.length === 0) return { refusals: [], settle: () => {} };
      return new Promise((resolve) => {
        if (waiting.length === 0) setImmediate(() => void flush());
        waiting.push({ specs: limited, estimate: estimatedTokens, resolve });
      });
    },
    close: () => connection.close(),
  };
}

interface Pending {
  specs: LimitSpec[];
  estimate: number;
  resolve(admission: Admission): void;
}

function describeRefusal(call: Pending, [index, kind, retry, used]: Array<number | string>): LimitRefusal {
  const spec = call.specs[Number(index)]!;
  const what = kind === 'r'
    ? `${spec.requestsPerMinute} requests per minute reached`
    : `${spec.tokensPerMinute} tokens per minute reached (${used} used, about ${call.estimate} asked)`;
  return { scope: spec.scope, shadow: spec.shadow, reason: `policy ${spec.scope}: ${what}`, retryAfterSeconds: Math.max(1, Number(retry)) };
}

/** Redis unreachable: open lets the call through unlimited (a warning says so); closed refuses it. */
function unavailable(specs: readonly LimitSpec[], mode: 'open' | 'closed'): Admission {
  const refusals: LimitRefusal[] = specs.map((spec) => ({
    scope: spec.scope, shadow: mode === 'open', unavailable: true,
    reason: `policy ${spec.scope}: rate-limit counters unreachable (limits_when_redis_down=${mode})`, retryAfterSeconds: 1,
  }));
  return { refusals, settle: () => {} };
}
