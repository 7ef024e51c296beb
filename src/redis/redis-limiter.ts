// Requests and tokens per minute in Redis/Valkey, shared by every instance (issue 15).
// One Lua script checks every limit of a call and reserves it in the same atomic step,
// on Redis's clock: a call takes 1 request and its token estimate, and settle() later
// moves the tokens to what the provider reported. N instances therefore admit exactly
// what one would; tokens overshoot only by the estimate's error.
//
// A scope's window is one hash, `gw:rl:<scope>`, with a field per second (`r<sec>`
// requests, `t<sec>` tokens); fields older than 60 s are dropped as the script reads them.
import type { RedisConnection } from './redis-connection.js';
import type { Admission, LimitRefusal, LimitSpec, Limiter } from '../policy/rate-limiter.js';

const WINDOW_SECONDS = 60;

// ARGV: estimate, count, then per spec: scope, rpm (-1: none), tpm (-1: none), shadow (1/0).
// Returns: now, then per refusal: index, kind (r|t), retry-after seconds, used.
const ADMIT = `
local t = redis.call('TIME')
local now = tonumber(t[1])
local estimate = tonumber(ARGV[1])
local count = tonumber(ARGV[2])
local out = { now }
local enforced = false
for i = 0, count - 1 do
  local base = 3 + i * 4
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
    table.insert(out, i); table.insert(out, 'r'); table.insert(out, retry); table.insert(out, requests)
    if not shadow then enforced = true end
  elseif tpm >= 0 and requests > 0 and tokens + estimate > tpm then
    table.insert(out, i); table.insert(out, 't'); table.insert(out, retry); table.insert(out, tokens)
    if not shadow then enforced = true end
  end
end
if not enforced then
  for i = 0, count - 1 do
    local key = 'gw:rl:' .. ARGV[3 + i * 4]
    redis.call('HINCRBY', key, 'r' .. now, 1)
    redis.call('HINCRBY', key, 't' .. now, estimate)
    redis.call('EXPIRE', key, ${WINDOW_SECONDS + 1})
  end
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

  return {
    async admit(specs, estimatedTokens): Promise<Admission> {
      const limited = specs.filter((spec) => spec.requestsPerMinute !== undefined || spec.tokensPerMinute !== undefined);
      if (limited.length === 0) return { refusals: [], settle: () => {} };
      let reply: Array<number | string>;
      try {
        reply = await commands.gwAdmit(estimatedTokens, limited.length, ...limited.flatMap((spec) => [spec.scope, spec.requestsPerMinute ?? -1, spec.tokensPerMinute ?? -1, spec.shadow ? 1 : 0]));
        connection.noteSuccess();
      } catch (error) {
        connection.noteFailure(error);
        return unavailable(limited, failMode());
      }
      const second = Number(reply[0]);
      const refusals: LimitRefusal[] = [];
      for (let index = 1; index + 3 < reply.length; index += 4) {
        const spec = limited[Number(reply[index])]!;
        const what = reply[index + 1] === 'r'
          ? `${spec.requestsPerMinute} requests per minute reached`
          : `${spec.tokensPerMinute} tokens per minute reached (${reply[index + 3]} used, about ${estimatedTokens} asked)`;
        refusals.push({ scope: spec.scope, shadow: spec.shadow, reason: `policy ${spec.scope}: ${what}`, retryAfterSeconds: Math.max(1, Number(reply[index + 2])) });
      }
      if (refusals.some((refusal) => !refusal.shadow)) return { refusals, settle: () => {} };
      let settled = false;
      return {
        refusals,
        settle: (actual) => {
          if (settled || actual === undefined || actual === estimatedTokens) return;
          settled = true;
          void commands.gwSettle(second, actual - estimatedTokens, ...limited.map((spec) => spec.scope)).catch(() => undefined);
        },
      };
    },
    close: () => connection.close(),
  };
}

/** Redis unreachable: open lets the call through unlimited (a warning says so); closed refuses it. */
function unavailable(specs: readonly LimitSpec[], mode: 'open' | 'closed'): Admission {
  const refusals: LimitRefusal[] = specs.map((spec) => ({
    scope: spec.scope, shadow: mode === 'open', unavailable: true,
    reason: `policy ${spec.scope}: rate-limit counters unreachable (limits_when_redis_down=${mode})`, retryAfterSeconds: 1,
  }));
  return { refusals, settle: () => {} };
}
