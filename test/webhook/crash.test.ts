import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/** 3 rounds in `npm test`; CRASH_ROUNDS=20 for the long mode (issue 8). */
const CRASH_ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);

/** A fetch response body as loosely typed JSON (tests assert its shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function jsonOf(res: Response): Promise<any> {
  return res.json();
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ADMIN_TOKEN = 'crash-test-admin-token-0123456789';
const BURST = 300;
/** The process is killed the moment this many captures have been acknowledged. */
const KILL_AFTER_ACKS = 200;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Start the real service (`devutil serve`) and wait until it answers /healthz. */
async function startService(dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_TOKEN,
      LOG_LEVEL: 'error',
      BIN_MAX_REQUESTS: '100000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('service did not start within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

describe('crash safety of captures', () => {
  it(
    `every acknowledged capture survives SIGKILL right after a burst (${CRASH_ROUNDS} rounds)`,
    { timeout: 60_000 * CRASH_ROUNDS },
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'devutil-crash-'));
      let service = await startService(dataDir);
      try {
        const created = await fetch(`${service.base}/v1/admin/keys`, {
          method: 'POST',
          headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'crash', plan: 'unlimited' }),
        });
        assert.equal(created.status, 201);
        const auth = { 'x-api-key': (await jsonOf(created)).api_key as string };
        const bin = await fetch(`${service.base}/v1/bins`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: '{}',
        });
        const binId = (await jsonOf(bin)).bin.bin_id as string;
        const acknowledged: { requestId: string; body: string }[] = [];

        for (let round = 1; round <= CRASH_ROUNDS; round++) {
          const { child, base } = service;
          let acksThisRound = 0;
          await Promise.allSettled(
            Array.from({ length: BURST }, async (_, i) => {
              const body = JSON.stringify({ round, i });
              const res = await fetch(`${base}/v1/catch/${binId}`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body,
              });
              const ack = await jsonOf(res);
              if (res.status !== 200) throw new Error(`capture answered ${res.status}`);
              acknowledged.push({ requestId: ack.request_id, body });
              // The kill lands while the rest of the burst is still in flight.
              if (++acksThisRound === KILL_AFTER_ACKS) child.kill('SIGKILL');
            }),
          );
          await exited(child);
          assert.equal(child.signalCode, 'SIGKILL', `round ${round}: the service was killed, not stopped`);
          assert.ok(acksThisRound >= KILL_AFTER_ACKS, `round ${round}: ${acksThisRound} acknowledgements before the kill`);

          service = await startService(dataDir);
          for (const { requestId, body } of acknowledged) {
            const res = await fetch(`${service.base}/v1/bins/${binId}/requests/${requestId}`, { headers: auth });
            assert.equal(res.status, 200, `round ${round}: acknowledged ${requestId} is present after restart`);
            assert.equal((await jsonOf(res)).request.body, body);
          }
          const count = (await jsonOf(await fetch(`${service.base}/v1/bins/${binId}`, { headers: auth }))).bin.request_count;
          assert.ok(
            count >= acknowledged.length,
            `round ${round}: request_count ${count} covers ${acknowledged.length} acknowledged captures`,
          );
        }
      } finally {
        service.child.kill('SIGTERM');
        await exited(service.child);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
