import { BASE62, MAX_ID_SEQUENCE } from '../../lib/ids.js';

/**
 * Lua scripts: each makes one multi-step change atomic in a single round trip. Every script
 * touches keys of one hash tag only (one cluster slot), so it runs unchanged on Redis Cluster.
 * `rotateKey` also builds digest keys itself; they carry the same `{keys}` tag, hence the same slot.
 */
export const SCRIPTS = {
  /** KEYS: counter. ARGV: cost, limit (-1 = none), ttl seconds. → {ok 0|1, used} */
  reserveCredits: {
    numberOfKeys: 1,
    lua: `local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local cost, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
if limit >= 0 and used + cost > limit then return {0, used} end
used = redis.call('INCRBY', KEYS[1], cost)
redis.call('EXPIRE', KEYS[1], ARGV[3])
return {1, used}`,
  },
  /** KEYS: counter. ARGV: cost. → used */
  refundCredits: {
    numberOfKeys: 1,
    lua: `local used = tonumber(redis.call('GET', KEYS[1]) or '0') - tonumber(ARGV[1])
if used < 0 then used = 0 end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('SET', KEYS[1], used, 'KEEPTTL') end
return used`,
  },
  /** KEYS: window counter. ARGV: ttl ms. → count */
  hitRateLimit: {
    numberOfKeys: 1,
    lua: `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`,
  },
  /**
   * KEYS: key hash. ARGV: now, key-changes channel, key id. → 1 when revoked now (and the id is
   * published on the channel by the same script, so every instance hears of it before the caller).
   */
  revokeKey: {
    numberOfKeys: 1,
    lua: `local r = redis.call('HGET', KEYS[1], 'revokedAt')
if not r or r ~= 'null' then return 0 end
redis.call('HSET', KEYS[1], 'revokedAt', ARGV[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1`,
  },
  /**
   * KEYS: key hash. ARGV: digest-key prefix, new digest JSON, new hint JSON, new digest, key-changes
   * channel. → 1 when rotated (the key id is then published on the channel, as for a revocation)
   */
  rotateKey: {
    numberOfKeys: 1,
    lua: `local r = redis.call('HGET', KEYS[1], 'revokedAt')
if not r or r ~= 'null' then return 0 end
local old = cjson.decode(redis.call('HGET', KEYS[1], 'digest'))
local id = cjson.decode(redis.call('HGET', KEYS[1], 'id'))
redis.call('DEL', ARGV[1] .. old)
redis.call('SET', ARGV[1] .. ARGV[4], id)
redis.call('HSET', KEYS[1], 'digest', ARGV[2], 'hint', ARGV[3])
redis.call('PUBLISH', ARGV[5], id)
return 1`,
  },
  /**
   * KEYS: meta, order, reqs. ARGV: now, max, placeholder id, random part, request JSON, grace ms,
   * and optionally a channel and a message. → {count, id}, false when the bin is missing or
   * expired, -1 when it holds MAX_ID_SEQUENCE captures already. The id is made here, as
   * `newSequencedId` makes it (`req_`, the count in 6 base62 digits, the random part and its tag), since only
   * the script knows the count; it replaces the placeholder (`req_~~~~~~` + the random part: no
   * pattern character, never in data sent) in the JSON and the message. The message is published
   * only when the capture is stored, by the same script: scripts run one at a time, so whichever
   * process captures, a bin's messages are published in the order its captures are stored (LPUSH order).
   */
  captureRequest: {
    numberOfKeys: 3,
    lua: `local exp = tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
local now = tonumber(ARGV[1])
if not exp or exp <= now then return false end
if tonumber(redis.call('HGET', KEYS[1], 'requestCount')) >= ${MAX_ID_SEQUENCE} then return -1 end
local count = redis.call('HINCRBY', KEYS[1], 'requestCount', 1)
local digits, n = '', count
for _ = 1, 6 do
  local d = n % 62
  digits = string.sub('${BASE62}', d + 1, d + 1) .. digits
  n = (n - d) / 62
end
local id = 'req_' .. digits .. ARGV[4]
redis.call('LPUSH', KEYS[2], id)
redis.call('HSET', KEYS[3], id, (string.gsub(ARGV[5], ARGV[3], id)))
local max = tonumber(ARGV[2])
if redis.call('LLEN', KEYS[2]) > max then
  local old = redis.call('LRANGE', KEYS[2], max, -1)
  redis.call('LTRIM', KEYS[2], 0, max - 1)
  for i = 1, #old do redis.call('HDEL', KEYS[3], old[i]) end
end
local ttl = exp - now + tonumber(ARGV[6])
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
if ARGV[8] then redis.call('PUBLISH', ARGV[7], (string.gsub(ARGV[8], ARGV[3], id))) end
return {count, id}`,
  },
  /**
   * KEYS: meta, order, reqs. ARGV: a request id, the number in it (-1 for an id without one), the
   * most to return. → the request JSON of the first (oldest) retained requests captured after it,
   * up to that many, in list order (newest first); false when the id is not the bin's. The order list holds the newest LLEN
   * captures, so the one numbered `seq` is at index `count - seq`; a smaller number was evicted or
   * cleared, and every retained request came after it.
   */
  requestsAfter: {
    numberOfKeys: 3,
    lua: `local count = tonumber(redis.call('HGET', KEYS[1], 'requestCount'))
if not count then return false end
local len = redis.call('LLEN', KEYS[2])
local seq = tonumber(ARGV[2])
local pos
if seq < 0 then
  pos = redis.call('LPOS', KEYS[2], ARGV[1])
  if not pos then return false end
elseif seq < 1 or seq > count then return false
elseif seq > count - len then
  pos = count - seq
  if redis.call('LINDEX', KEYS[2], pos) ~= ARGV[1] then return false end
else
  pos = len
end
if pos == 0 then return {} end
local ids = redis.call('LRANGE', KEYS[2], math.max(0, pos - tonumber(ARGV[3])), pos - 1)
return redis.call('HMGET', KEYS[3], unpack(ids))`,
  },
  /**
   * KEYS: order, reqs. ARGV: first and last index (LRANGE). → {total, request JSON, ...}: the count
   * and the page read at one instant, so a capture evicting requests cannot come in between.
   */
  listRequests: {
    numberOfKeys: 2,
    lua: `local out = {redis.call('LLEN', KEYS[1])}
local ids = redis.call('LRANGE', KEYS[1], ARGV[1], ARGV[2])
if #ids > 0 then
  local raw = redis.call('HMGET', KEYS[2], unpack(ids))
  for i = 1, #raw do out[i + 1] = raw[i] end
end
return out`,
  },
  /** KEYS: order, reqs. → how many were cleared */
  clearRequests: {
    numberOfKeys: 2,
    lua: `local n = redis.call('LLEN', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2])
return n`,
  },
  /** KEYS: mock hash. ARGV: now, new TTL ms (-1 = keep), then field/value pairs. → 1 when updated */
  updateMock: {
    numberOfKeys: 1,
    lua: `local exp = tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
if not exp or exp <= tonumber(ARGV[1]) then return 0 end
if #ARGV > 2 then redis.call('HSET', KEYS[1], unpack(ARGV, 3)) end
if tonumber(ARGV[2]) >= 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`,
  },
  /**
   * KEYS: a record's hash (bin meta, mock), then the other keys of its hash tag. ARGV: now, or -1
   * to delete regardless of expiry. → {0, expiresAt} when still live (nothing deleted),
   * {1, ownerKeyId JSON} when deleted, {2} when there was no record (other keys deleted anyway).
   */
  removeRecord: {
    numberOfKeys: undefined, // variable: the runner passes the count
    lua: `local exp = redis.call('HGET', KEYS[1], 'expiresAt')
local now = tonumber(ARGV[1])
if exp and now >= 0 and tonumber(exp) > now then return {0, exp} end
local owner = redis.call('HGET', KEYS[1], 'ownerKeyId')
redis.call('DEL', unpack(KEYS))
if owner then return {1, owner} end
return {2}`,
  },
  /** KEYS: mock hash. ARGV: now. → new hit count or nil */
  recordMockHit: {
    numberOfKeys: 1,
    lua: `local exp = tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
if not exp or exp <= tonumber(ARGV[1]) then return false end
return redis.call('HINCRBY', KEYS[1], 'hitCount', 1)`,
  },
  /**
   * KEYS: a routing key carrying the channel's hash tag (never written). ARGV: channel, message.
   * → receivers. Publishing through the node that owns that slot keeps a channel's messages in
   * order on a cluster (a plain PUBLISH goes to any node; from different nodes, messages reach a
   * subscriber over different cluster-bus links and can overtake each other). A bin's channel has
   * the bin's own hash tag, so this node is also the one whose capture script announces captures.
   */
  publishInOrder: {
    numberOfKeys: 1,
    lua: `return redis.call('PUBLISH', ARGV[1], ARGV[2])`,
  },
} as const;

export type ScriptName = keyof typeof SCRIPTS;
