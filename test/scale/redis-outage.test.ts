import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { freePort, hasRedisServer, startRedisServer, startServiceProcess, type RedisServer, type ServiceProcess } from '../helpers/processes.js';
import { spawnSync } from 'node:child_process';

const skip = hasRedisServer() ? undefined : process.env.REQUIRE_REDIS === '1' ? undefined : 'redis-server is not installed here';

describe('Redis failures', { skip }, () => {
  let redis: RedisServer;
  let service: ServiceProcess;
  let key: string;
  let binId: string;
  before(async () => {
    redis = await startRedisServer();
    service = await startServiceProcess({ STORE: 'redis', REDIS_URL: redis.url });
    const res = await fetch(`${service.url}/v1/admin/keys`, { method: 'POST', headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' }, body: '{}' });
    key = ((await res.json()) as { api_key: string }).api_key;
    const bin = await fetch(`${service.url}/v1/bins`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: '{}' });
    binId = ((await bin.json()) as { bin: { bin_id: string } }).bin.bin_id;
  });
  after(async () => {
    await service?.stop();
    await redis?.kill();
  });

  const capture = () => fetch(`${service.url}/v1/catch/${binId}`, { method: 'POST', body: 'x' });

  it('answers 503 storage_unavailable while Redis is down (never an acknowledged capture), then recovers', async () => {
    assert.equal((await capture()).status, 200);
    await redis.kill();
    const down = await capture();
    assert.equal(down.status, 503);
    assert.equal(((await down.json()) as { code: string }).code, 'storage_unavailable');
    const ready = await fetch(`${service.url}/readyz`);
    assert.equal(ready.status, 503);
    assert.equal((await fetch(`${service.url}/v1/account`, { headers: { 'x-api-key': key } })).status, 503);
    assert.equal((await fetch(`${service.url}/healthz`)).status, 200, 'the process itself stays alive');

    await redis.restart();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await fetch(`${service.url}/readyz`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(status, 200, 'readiness recovers by itself');
    assert.equal((await capture()).status, 200);
    const list = await fetch(`${service.url}/v1/bins/${binId}/requests`, { headers: { 'x-api-key': key } });
    const body = (await list.json()) as { total: number };
    assert.equal(body.total, 2, 'exactly the acknowledged captures are stored');
  });

  it('refuses to start when Redis cannot be reached, naming REDIS_URL', async () => {
    const port = await freePort();
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
      env: { ...process.env, STORE: 'redis', REDIS_URL: `redis://127.0.0.1:${port}`, PORT: '0' },
      encoding: 'utf8',
      timeout: 90_000,
    });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /REDIS_URL cannot be reached: no Redis answered at redis:\/\/127\.0\.0\.1:\d+/);
  });
});
