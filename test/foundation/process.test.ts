import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const CLI = ['--import', 'tsx', 'src/cli/main.ts'];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function cli(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [...CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 90_000 });
}

async function serve(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; output: () => string; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, ...CLI, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'info', PORT: String(port), ...env },
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 900; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { child, output: () => out, url };
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('the process', () => {
  it("first start prints the owner's key (plan unlimited) once, then the web app's sign-in link; SIGTERM exits 0; a restart keeps the key", async () => {
    const DATA_DIR = mkdtempSync(join(tmpdir(), 'devutil-serve-'));
    const first = await serve({ DATA_DIR, HOST: '127.0.0.1' });
    const key = /^API key: (dk_[0-9A-Za-z]{32})$/m.exec(first.output())?.[1];
    assert.ok(key, first.output());
    assert.ok(first.output().includes(`API key: ${key}\nWeb app: ${first.url}/#key=${key}\n`), first.output());
    const account = await fetch(`${first.url}/v1/account`, { headers: { 'x-api-key': key } });
    assert.equal(account.status, 200);
    const owner = (await account.json()) as {
      plan: string;
      name: string;
      rate_limit_per_minute: number | null;
      credits: { limit: number | null };
    };
    assert.deepEqual([owner.plan, owner.name, owner.rate_limit_per_minute, owner.credits.limit], ['unlimited', 'bootstrap', null, null]);
    first.child.kill('SIGTERM');
    assert.equal(await exited(first.child), 0);

    const second = await serve({ DATA_DIR });
    assert.ok(!/API key:/.test(second.output()), 'no second bootstrap key');
    assert.equal((await fetch(`${second.url}/v1/account`, { headers: { 'x-api-key': key } })).status, 200);
    second.child.kill('SIGTERM');
    assert.equal(await exited(second.child), 0);
  });

  it("BOOTSTRAP_PLAN names the first key's plan; with UI=false no web app line is printed", async () => {
    const service = await serve({ DATA_DIR: mkdtempSync(join(tmpdir(), 'devutil-bootstrap-')), BOOTSTRAP_PLAN: 'free', UI: 'false' });
    try {
      const key = /^API key: (dk_[0-9A-Za-z]{32})$/m.exec(service.output())?.[1];
      assert.ok(key, service.output());
      assert.ok(!/Web app:/.test(service.output()), service.output());
      const account = await fetch(`${service.url}/v1/account`, { headers: { 'x-api-key': key } });
      const owner = (await account.json()) as { plan: string; rate_limit_per_minute: number | null };
      assert.deepEqual([owner.plan, owner.rate_limit_per_minute], ['free', 60]);
    } finally {
      service.child.kill('SIGTERM');
      await exited(service.child);
    }
  });

  it('runs under V8 flags (node --max-old-space-size=…): its worker threads start, the checkpointer and the crypto pool', async () => {
    const DATA_DIR = mkdtempSync(join(tmpdir(), 'devutil-v8flags-'));
    const service = await serve({ DATA_DIR }, ['--max-old-space-size=512', '--stack-size=984']);
    const key = /^API key: (dk_[0-9A-Za-z]{32})$/m.exec(service.output())?.[1];
    assert.ok(key, service.output());
    // Password strength runs on the crypto worker pool.
    const res = await fetch(`${service.url}/v1/auth/password-strength`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'correct horse battery staple' }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(typeof ((await res.json()) as { score: unknown }).score, 'number');
    service.child.kill('SIGTERM');
    assert.equal(await exited(service.child), 0, service.output());
    assert.ok(!/ERR_WORKER_INVALID_EXEC_ARGV/.test(service.output()), service.output());
  });

  it("SIGTERM to `npm start` reaches the service (npm's shell execs node), which shuts down and stops listening", async () => {
    const port = await freePort();
    const child = spawn('npm', ['start'], {
      env: {
        ...process.env,
        LOG_LEVEL: 'info',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'devutil-npm-start-')),
      },
      detached: true,
    });
    let out = '';
    child.stdout!.on('data', (c) => (out += c));
    child.stderr!.on('data', (c) => (out += c));
    const url = `http://127.0.0.1:${port}`;
    const up = async () =>
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    try {
      for (let i = 0; i < 300 && !(await up()); i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(await up(), out);
      child.kill('SIGTERM'); // npm's pid, as a container runtime or a terminal would signal it
      let down = false;
      for (let i = 0; i < 100 && !down; i++) {
        await new Promise((r) => setTimeout(r, 100));
        down = !(await up()) && /"shutting down"/.test(out);
      }
      assert.ok(down, `the service still listens or never logged its shutdown:\n${out}`);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL'); // whatever is left of the group
      } catch {
        // already gone
      }
    }
  });

  it('a keep-alive connection whose delayed response ends during shutdown does not hold the exit for keepAliveTimeout', async () => {
    const DATA_DIR = mkdtempSync(join(tmpdir(), 'devutil-keepalive-'));
    const service = await serve({ DATA_DIR });
    const key = /^API key: (dk_[0-9A-Za-z]{32})$/m.exec(service.output())?.[1];
    const created = await fetch(`${service.url}/v1/mocks`, {
      method: 'POST',
      headers: { 'x-api-key': key!, 'content-type': 'application/json' },
      body: JSON.stringify({ delay_ms: 1500, body: 'late' }),
    });
    const { mock } = (await created.json()) as { mock: { mock_id: string } };
    const agent = new http.Agent({ keepAlive: true });
    const answered = new Promise<{ status: number; body: string; at: number }>((resolve, reject) => {
      http
        .get(`${service.url}/v1/mock/${mock.mock_id}`, { agent }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, at: Date.now() }));
        })
        .on('error', reject);
    });
    await new Promise((r) => setTimeout(r, 300));
    service.child.kill('SIGTERM');
    const code = exited(service.child).then((c) => ({ code: c, at: Date.now() }));
    const answer = await answered;
    assert.deepEqual([answer.status, answer.body], [200, 'late']);
    const exit = await code;
    agent.destroy();
    assert.equal(exit.code, 0, service.output());
    // Before: the socket stayed open until keepAliveTimeout (5 s) after the answer.
    assert.ok(exit.at - answer.at < 3000, `exited ${exit.at - answer.at} ms after the answer`);
  });

  it('devutil keys create | list | rotate | revoke work on the store', () => {
    const env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'devutil-cli-')) };
    const created = cli(['keys', 'create', '--plan', 'pro', '--name', 'laptop'], env);
    assert.equal(created.status, 0, created.stderr);
    const secret = /API key: (dk_\w{32})/.exec(created.stdout)![1];
    const id = /key_id: (key_\w+)/.exec(created.stdout)![1];
    assert.match(created.stdout, /plan: pro/);
    const listed = cli(['keys', 'list'], env);
    assert.match(
      listed.stdout,
      new RegExp(`${id}\\tsha256:${createHash('sha256').update(secret).digest('hex').slice(0, 12)}…\\tpro\\tactive\\tlaptop`),
    );
    assert.ok(!listed.stdout.includes(secret));
    const rotated = cli(['keys', 'rotate', id], env);
    assert.equal(rotated.status, 0);
    assert.notEqual(/API key: (dk_\w{32})/.exec(rotated.stdout)![1], secret);
    assert.equal(cli(['keys', 'revoke', id], env).status, 0);
    assert.match(cli(['keys', 'list'], env).stdout, /revoked/);
    const unknownPlan = cli(['keys', 'create', '--plan', 'gold'], env);
    assert.equal(unknownPlan.status, 2);
    assert.match(unknownPlan.stderr, /unknown plan "gold"/);
    assert.equal(cli(['keys', 'revoke', 'key_nope'], env).status, 2);
    assert.equal(cli(['frobnicate'], env).status, 2);
  });
});
