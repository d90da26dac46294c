import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN } from './app.js';

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

async function waitFor(check: () => Promise<boolean>, what: string, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up within ${ms} ms`);
}

export interface ServiceProcess {
  url: string;
  /** The running process (a new one after {@link restart}). */
  readonly child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Stop the process (SIGTERM) and start it again on the same port, DATA_DIR and environment. */
  restart(): Promise<void>;
}

/**
 * Run the real service (`devutil serve` through tsx, or the build in dist/ with `built`) on a free
 * loopback port.
 */
export async function startServiceProcess(env: Record<string, string>, { built = false } = {}): Promise<ServiceProcess> {
  const port = await freePort();
  const entry = built ? ['dist/src/cli/main.js'] : ['--import', 'tsx', 'src/cli/main.ts'];
  const processEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'devutil-proc-')),
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  const url = `http://127.0.0.1:${port}`;
  let out = '';
  let child!: ChildProcess;
  const launch = async () => {
    const started = spawn(process.execPath, [...entry, 'serve'], { env: processEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.stdout!.on('data', (c) => (out += c));
    started.stderr!.on('data', (c) => (out += c));
    await waitFor(async () => {
      if (started.exitCode !== null) throw new Error(`service exited: ${out}`);
      return (await fetch(`${url}/healthz`)).ok;
    }, `service on ${url}`);
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null) child.kill(signal);
    return exited(child);
  };
  await launch();
  return {
    url,
    get child() {
      return child;
    },
    output: () => out,
    stop,
    async restart() {
      await stop();
      await launch();
    },
  };
}

export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/** Why Redis Cluster tests cannot run here (undefined when they can); REQUIRE_REDIS=1 makes it an error. */
export function redisClusterSkipReason(): string | undefined {
  if (hasRedisServer() && spawnSync('redis-cli', ['--version']).status === 0) return undefined;
  if (process.env.REQUIRE_REDIS === '1') throw new Error('REQUIRE_REDIS=1 but redis-server or redis-cli is not installed');
  return 'redis-server or redis-cli is not installed here (REQUIRE_REDIS=1 makes this an error)';
}

/** Send one command to the redis-server on 127.0.0.1:`port` (fails at once when none answers). */
async function askRedis(port: number, [name, ...args]: string[] = ['ping']): Promise<string> {
  const { Redis } = await import('ioredis');
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return String(await probe.call(name, ...args));
  } finally {
    probe.disconnect();
  }
}

export interface RedisServer {
  url: string;
  port: number;
  kill(): Promise<void>;
  restart(): Promise<void>;
  /** Kill it and delete its files. */
  stop(): Promise<void>;
}

/** A private redis-server on a free loopback port, with an append-only file so a restart keeps data. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'devutil-redis-'));
  let child: ChildProcess;
  const launch = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir],
      { stdio: 'ignore' },
    );
    await waitFor(async () => (await askRedis(port)) === 'PONG', `redis-server on ${port}`);
  };
  const kill = async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited(child);
  };
  const killOnExit = () => child.kill('SIGKILL'); // a crashed test leaves no server behind
  process.on('exit', killOnExit);
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    restart: launch,
    async stop() {
      await kill();
      process.off('exit', killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RedisCluster {
  /** `redis+cluster://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3`, as REDIS_URL takes it. */
  url: string;
  ports: number[];
  /** SIGKILL every node. */
  kill(): Promise<void>;
  /** Start the nodes again with their cluster config (slots kept; data is not persisted). */
  restart(): Promise<void>;
  /** Kill the nodes and delete their files. */
  stop(): Promise<void>;
}

/**
 * A private Redis Cluster of `masters` masters (no replicas, no persistence) on free loopback
 * ports, ready once every node reports `cluster_state:ok`.
 *
 * @example
 *   const cluster = await startRedisCluster();
 *   const store = await createRedisStore({ url: cluster.url });
 */
export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'devutil-cluster-'));
  const ports: number[] = [];
  const busPorts: number[] = [];
  while (busPorts.length < masters) {
    const port = await freePort();
    if (ports.includes(port) || busPorts.includes(port)) continue;
    if (ports.length === busPorts.length) ports.push(port);
    else busPorts.push(port);
  }
  let children: ChildProcess[] = [];
  const launch = async () => {
    children = ports.map((port, i) =>
      spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-port',
          String(busPorts[i]),
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          '2000',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          dir,
        ],
        { stdio: 'ignore' },
      ),
    );
    await Promise.all(ports.map((port) => waitFor(async () => (await askRedis(port)) === 'PONG', `cluster node on ${port}`, 20_000)));
  };
  const waitClusterOk = () =>
    Promise.all(
      ports.map((port) =>
        waitFor(
          async () => (await askRedis(port, ['cluster', 'info'])).includes('cluster_state:ok'),
          `cluster_state:ok on ${port}`,
          30_000,
        ),
      ),
    );
  const kill = async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
  };
  const killOnExit = () => children.forEach((child) => child.kill('SIGKILL')); // a crashed test leaves no nodes behind
  process.on('exit', killOnExit);
  await launch();
  const create = spawnSync(
    'redis-cli',
    ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'],
    { encoding: 'utf8', timeout: 30_000 },
  );
  if (create.status !== 0) {
    await kill();
    throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
  }
  await waitClusterOk();
  return {
    url: `redis+cluster://${ports.map((p) => `127.0.0.1:${p}`).join(',')}`,
    ports,
    kill,
    async restart() {
      await launch();
      await waitClusterOk();
    },
    async stop() {
      await kill();
      process.off('exit', killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
