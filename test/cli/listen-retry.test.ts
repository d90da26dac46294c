import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { api, assertBuilt, DELIVERY_LINE, issueKey, startCli, startService, startTargetApp, type Service } from './cli-helpers.js';

// A local app that is down: `devutil listen` retries with backoff, reports what failed, never stops (CONTRACT §9).

const DOWN_MS = 5000;

describe('devutil listen with a target app down for 5 s', () => {
  let service: Service;
  before(async () => {
    assertBuilt();
    service = await startService();
  });
  after(() => service?.stop());

  it('default retries deliver every capture once it is up; --retries 0 prints each failure and goes on', { timeout: 60_000 }, async () => {
    const key = await issueKey(service);
    const patient = await startTargetApp();
    const hasty = await startTargetApp();
    const { json } = await api<{ bin: { bin_id: string }; url: string }>(service, key, 'POST', '/v1/bins', {});
    const binId = json.bin.bin_id;
    const listenArgs = ['listen', '--url', service.url, '--key', key, '--bin', binId];
    await Promise.all([patient.down(), hasty.down()]);
    const retrying = startCli([...listenArgs, '--forward-to', `${patient.url}/hook`]);
    const failing = startCli([...listenArgs, '--forward-to', `${hasty.url}/hook`, '--retries', '0']);
    try {
      await Promise.all([retrying.waitForLine(/^Forwarding /), failing.waitForLine(/^Forwarding /)]);
      const downAt = Date.now();
      for (const n of ['1', '2', '3']) assert.equal((await fetch(`${json.url}/x`, { method: 'POST', body: n })).status, 200);
      await failing.waitForCount(/-> failed: ECONNREFUSED$/, 3);
      // Down for 5 s from the first attempt, however long the capture took to reach listen on a busy machine.
      const deadline = Date.now() + 20_000;
      while (!retrying.stderr().includes('retrying in 0.5 s')) {
        assert.ok(Date.now() < deadline, retrying.stderr());
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, DOWN_MS));
      assert.equal(patient.received.length, 0);
      await Promise.all([patient.up(), hasty.up()]);
      await retrying.waitForCount(/ {2}-> 200 {2}\d+ ms$/, 3);
      assert.equal((await fetch(`${json.url}/x`, { method: 'POST', body: '4' })).status, 200);
      await Promise.all([retrying.waitForCount(DELIVERY_LINE, 4), failing.waitForCount(DELIVERY_LINE, 4)]);

      assert.deepEqual(
        patient.received.map((r) => r.body.toString()),
        ['1', '2', '3', '4'],
      );
      assert.ok(patient.received[0]!.at - downAt >= DOWN_MS, 'the first delivery waited for the app');
      assert.deepEqual(
        retrying
          .lines()
          .slice(1)
          .map((l) => l.replace(/^\d{2}:\d{2}:\d{2} {2}/, '').replace(/ {2}\d+ ms$/, '')),
        ['POST /x  -> 200', 'POST /x  -> 200', 'POST /x  -> 200', 'POST /x  -> 200'],
      );
      assert.match(retrying.stderr(), /^ {2}POST \/x: ECONNREFUSED; retrying in 0\.5 s \(attempt 2 of 6\)$/m);
      assert.match(retrying.stderr(), /^ {2}POST \/x: ECONNREFUSED; retrying in 4 s \(attempt 5 of 6\)$/m);

      assert.deepEqual(
        hasty.received.map((r) => r.body.toString()),
        ['4'],
      );
      assert.deepEqual(
        failing
          .lines()
          .slice(1)
          .map((l) => l.replace(/^\d{2}:\d{2}:\d{2} {2}/, '').replace(/ {2}\d+ ms$/, '')),
        ['POST /x  -> failed: ECONNREFUSED', 'POST /x  -> failed: ECONNREFUSED', 'POST /x  -> failed: ECONNREFUSED', 'POST /x  -> 200'],
      );
      assert.equal(retrying.child.exitCode, null);
      assert.equal(failing.child.exitCode, null);
    } finally {
      retrying.child.kill('SIGINT');
      failing.child.kill('SIGINT');
      assert.deepEqual(await Promise.all([retrying.exited, failing.exited]), [0, 0]);
      await Promise.all([patient.close(), hasty.close()]);
    }
  });

  it('Ctrl+C while a delivery waits to be retried stops at once with exit 0, reporting the delivery as failed', async () => {
    const key = await issueKey(service);
    const app = await startTargetApp();
    await app.down();
    const listen = startCli(['listen', '--url', service.url, '--key', key, '--forward-to', app.url, '--retries', '10']);
    try {
      const catchUrl = /Forwarding (\S+) -> /.exec(await listen.waitForLine(/^Forwarding /))![1]!;
      assert.equal((await fetch(`${catchUrl}/x`, { method: 'POST', body: '1' })).status, 200);
      const deadline = Date.now() + 20_000;
      while (!/retrying in 2 s \(attempt 4 of 11\)/.test(listen.stderr())) {
        assert.ok(Date.now() < deadline, listen.stderr());
        await new Promise((r) => setTimeout(r, 20));
      }
      const stoppedAt = Date.now();
      listen.child.kill('SIGINT');
      assert.equal(await listen.exited, 0);
      assert.ok(Date.now() - stoppedAt < 1500, `stopped after ${Date.now() - stoppedAt} ms`);
      assert.deepEqual(
        listen
          .lines()
          .slice(1)
          .map((l) => l.replace(/^\d{2}:\d{2}:\d{2} {2}/, '')),
        ['POST /x  -> failed: ECONNREFUSED (stopped before retrying)'],
      );
      assert.match(listen.lines()[1]!, DELIVERY_LINE);
      assert.match(listen.stderr(), /Stopping after the delivery in flight/);
    } finally {
      listen.child.kill('SIGKILL');
      await app.close();
    }
  });
});
