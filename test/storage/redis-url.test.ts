import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { parseRedisTarget, redactRedisUrl } from '../../src/storage/redis/redis-url.js';

describe('REDIS_URL: one Redis or a Redis Cluster', () => {
  it('redis:// and rediss:// name one server, kept as given', () => {
    assert.deepEqual(parseRedisTarget('redis://:pw@10.0.0.5:6379/2'), { kind: 'node', url: 'redis://:pw@10.0.0.5:6379/2' });
    assert.deepEqual(parseRedisTarget('rediss://cache.internal'), { kind: 'node', url: 'rediss://cache.internal' });
  });

  it('redis+cluster:// names seed nodes, with optional user and password (percent-decoded)', () => {
    assert.deepEqual(parseRedisTarget('redis+cluster://127.0.0.1:7000,127.0.0.1:7001'), {
      kind: 'cluster',
      nodes: [
        { host: '127.0.0.1', port: 7000 },
        { host: '127.0.0.1', port: 7001 },
      ],
      username: undefined,
      password: undefined,
      tls: false,
    });
    assert.deepEqual(parseRedisTarget('rediss+cluster://app:p%40ss%3Aword@redis-a.internal,[::1]:7002/'), {
      kind: 'cluster',
      nodes: [
        { host: 'redis-a.internal', port: 6379 },
        { host: '::1', port: 7002 },
      ],
      username: 'app',
      password: 'p@ss:word',
      tls: true,
    });
    assert.deepEqual(parseRedisTarget('redis+cluster://:secret@h1:7000'), {
      kind: 'cluster',
      nodes: [{ host: 'h1', port: 7000 }],
      username: undefined,
      password: 'secret',
      tls: false,
    });
  });

  it('refuses malformed values with a message that never shows the password', () => {
    const cases: [string, RegExp][] = [
      ['redis+cluster://', /must be redis\+cluster:\/\/\[user:password@\]host:port/],
      ['redis+cluster://h1:7000/1', /no path or query/],
      ['redis+cluster://:topsecret@h1:7000?x=1', /no path or query.*:\*\*\*@h1/],
      ['redis+cluster://:top/secret@h1:7000', /no path or query.*:\*\*\*@h1/],
      ['redis+cluster://h1:99999', /invalid cluster node "h1:99999"/],
      ['redis+cluster://h1:7000,,h2:x', /invalid cluster node "h2:x"/],
      ['http://x', /must use redis:, rediss:, redis\+cluster: or rediss\+cluster:/],
      ['not a url', /must be an absolute URL/],
    ];
    for (const [raw, message] of cases) {
      assert.throws(
        () => parseRedisTarget(raw),
        (err: Error) => err instanceof TypeError && message.test(err.message) && !err.message.includes('secret'),
        raw,
      );
    }
  });

  it('loadConfig accepts the cluster form and stops on a bad one, naming REDIS_URL', () => {
    assert.equal(
      loadConfig({ REDIS_URL: 'redis+cluster://127.0.0.1:7000,127.0.0.1:7001' }).redisUrl,
      'redis+cluster://127.0.0.1:7000,127.0.0.1:7001',
    );
    assert.equal(loadConfig({}).redisUrl, 'redis://127.0.0.1:6379');
    assert.throws(
      () => loadConfig({ REDIS_URL: 'redis+cluster://h1:0' }),
      (err: ConfigError) =>
        err instanceof ConfigError &&
        err.variable === 'REDIS_URL' &&
        err.message === 'Invalid configuration: REDIS_URL has an invalid cluster node "h1:0" (expected host:port)',
    );
  });

  it('redactRedisUrl hides only the password', () => {
    assert.equal(redactRedisUrl('redis+cluster://app:pw@h1:7000,h2:7000'), 'redis+cluster://app:***@h1:7000,h2:7000');
    assert.equal(redactRedisUrl('redis://:pw@h:6379'), 'redis://:***@h:6379');
    assert.equal(redactRedisUrl('redis://h:6379'), 'redis://h:6379');
  });
});
