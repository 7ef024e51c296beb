// The Lua scripts behind the shared budget counters (redis-spend-counter.ts). Per counter key K
// (`budget|period start`), on Redis's clock (ms):
//   gw:spend:K          the count, integer nano-USD: settled spend plus live holds
//   gw:spend-holds:K    hash call id → "nanos expires-at": live holds, each released by its call's id
//   gw:spend-done:K     hash call id → what it settled at; gw:spend-done-at:K: zset call id → when.
//                       A call settled once is not settled again, and a reserve that reaches Redis
//                       after its call settled (it was queued behind a freeze) holds nothing.
// Every key is kept KEEP_MS from its last change; done entries are pruned after DONE_KEEP_MS.

/** Longer than any period. */
const KEEP_MS = 40 * 24 * 3600 * 1000;
/** A hold whose call never settled (its instance died) stops counting after this; a call that runs longer and settles adds its cost then. */
const HOLD_TTL_MS = 15 * 60_000;
/** How long a settled call is remembered (a late reserve, a repeated settle, reconciliation). */
const DONE_KEEP_MS = 5 * 60_000;

export const keysOf = (key: string): string[] => [`gw:spend:${key}`, `gw:spend-holds:${key}`, `gw:spend-done:${key}`, `gw:spend-done-at:${key}`];

const NOW_MS = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// ARGV: call id, nanos, limit (-1: none), deadline (ms, -1: none). 1 held, 0 refused, -1 too late, -2 already settled.
export const RESERVE = `${NOW_MS}
local deadline = tonumber(ARGV[4])
if deadline >= 0 and now > deadline then return -1 end
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then return -2 end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 1 end
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local nanos = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
if limit >= 0 and current + nanos > limit then return 0 end
redis.call('SET', KEYS[1], string.format('%.0f', current + nanos), 'PX', ${KEEP_MS})
redis.call('HSET', KEYS[2], ARGV[1], string.format('%.0f %.0f', nanos, now + ${HOLD_TTL_MS}))
redis.call('PEXPIRE', KEYS[2], ${KEEP_MS})
return 1
`;

// ARGV: call id, actual nanos. The call's hold (if any) becomes its cost; once per call id. 1 settled, 0 already.
export const SETTLE = `${NOW_MS}
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then return 0 end
local reserved = 0
local held = redis.call('HGET', KEYS[2], ARGV[1])
if held then
  reserved = tonumber(string.match(held, '^(%d+)'))
  redis.call('HDEL', KEYS[2], ARGV[1])
end
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
redis.call('SET', KEYS[1], string.format('%.0f', math.max(0, current - reserved + tonumber(ARGV[2]))), 'PX', ${KEEP_MS})
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[4], now, ARGV[1])
redis.call('PEXPIRE', KEYS[3], ${KEEP_MS})
redis.call('PEXPIRE', KEYS[4], ${KEEP_MS})
local old = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now - ${DONE_KEEP_MS}, 'LIMIT', 0, 32)
if #old > 0 then
  redis.call('HDEL', KEYS[3], unpack(old))
  redis.call('ZREM', KEYS[4], unpack(old))
end
return 1
`;

// ARGV: nanos. The count becomes at least what the trail recorded (a new budget, a start without reconciliation).
export const SEED = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local nanos = tonumber(ARGV[1])
if current < nanos then redis.call('SET', KEYS[1], string.format('%.0f', nanos), 'PX', ${KEEP_MS}) end
return 1
`;

// Drops expired holds, taking them off the count (their call never settled). Returns what was released.
const DROP_EXPIRED = `
local released = 0
local live = 0
local holds = redis.call('HGETALL', KEYS[2])
for i = 1, #holds, 2 do
  local nanos, expires = string.match(holds[i + 1], '^(%d+) (%d+)$')
  if tonumber(expires) < now then
    redis.call('HDEL', KEYS[2], holds[i])
    released = released + tonumber(nanos)
  else
    live = live + tonumber(nanos)
  end
end`;

export const SWEEP = `${NOW_MS}
${DROP_EXPIRED}
if released > 0 then
  local current = tonumber(redis.call('GET', KEYS[1]) or '0')
  redis.call('SET', KEYS[1], string.format('%.0f', math.max(0, current - released)), 'PX', ${KEEP_MS})
end
return string.format('%.0f', released)
`;

// ARGV: recorded nanos (the trail's sum for the period), since (ms), then the call ids the trail
// recorded from about then on. count := recorded + live holds + what settled since `since` under an
// id the trail does not have yet. Returns { before, after } as strings.
export const RECONCILE = `${NOW_MS}
${DROP_EXPIRED}
local recorded = {}
for i = 3, #ARGV do recorded[ARGV[i]] = true end
local unrecorded = 0
local recent = redis.call('ZRANGEBYSCORE', KEYS[4], ARGV[2], '+inf')
for _, id in ipairs(recent) do
  if not recorded[id] then unrecorded = unrecorded + tonumber(redis.call('HGET', KEYS[3], id) or '0') end
end
local before = redis.call('GET', KEYS[1]) or '0'
local after = string.format('%.0f', tonumber(ARGV[1]) + live + unrecorded)
redis.call('SET', KEYS[1], after, 'PX', ${KEEP_MS})
return { before, after }
`;
