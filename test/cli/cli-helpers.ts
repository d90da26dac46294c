import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN } from '../helpers/app.js';
import { exited, freePort } from '../helpers/processes.js';

// The CLI tests drive the build, as users run it: `node dist/src/cli/main.js ...` (CONTRACT §9).

export const CLI_ENTRY = join('dist', 'src', 'cli', 'main.js');

/** The newest mtime of a file under `dir`. */
function newestMtime(dir: string): [string, number] {
  let newest: [string, number] = ['', 0];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const found: [string, number] = entry.isDirectory() ? newestMtime(path) : [path, statSync(path).mtimeMs];
    if (found[1] > newest[1]) newest = found;
  }
  return newest;
}

/** Fail at once, saying so, when dist/ is missing or older than src/. */
export function assertBuilt(): void {
  if (!existsSync(CLI_ENTRY)) throw new Error(`${CLI_ENTRY} is missing: run npm run build`);
  const [path, mtime] = newestMtime('src');
  if (mtime > statSync(CLI_ENTRY).mtimeMs) throw new Error(`${path} is newer than the build in dist/: run npm run build`);
}

export interface Service {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Run the built service on 127.0.0.1:`port` (a free one unless given) with `DATA_DIR` (a new one unless given). */
export async function startService(env: Record<string, string> = {}, at: { port?: number; dataDir?: string } = {}): Promise<Service> {
  const port = at.port ?? (await freePort());
  const dataDir = at.dataDir ?? mkdtempSync(join(tmpdir(), 'devutil-cli-svc-'));
  const child = spawn(process.execPath, [CLI_ENTRY, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ADMIN_TOKEN, UI: 'false', DATA_DIR: dataDir, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited: ${out}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`service on ${url} did not come up: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port,
    dataDir,
    child,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited(child);
    },
  };
}

/** A new key on the `unlimited` plan, issued through the admin API. */
export async function issueKey(service: { url: string }, plan = 'unlimited'): Promise<string> {
  const res = await fetch(`${service.url}/v1/admin/keys`, {
    method: 'POST',
    headers: { 'x-admin-token': ADMIN_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify({ plan }),
  });
  assert.equal(res.status, 201);
  return ((await res.json()) as { api_key: string }).api_key;
}

/** Call the service's API with `key` and return the status and JSON. */
export async function api<T = Record<string, unknown>>(
  service: { url: string },
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const res = await fetch(`${service.url}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as T };
}

export interface CliRun {
  status: number | null;
  stdout: string;
  /** stdout's exact bytes. */
  stdoutBytes: Buffer;
  stderr: string;
}

/** Run `devutil args...` to completion (the test's own servers keep answering meanwhile). */
export function runCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string | Buffer } = {},
): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve) =>
    child.once('close', (status) => {
      const stdoutBytes = Buffer.concat(out);
      resolve({ status, stdout: stdoutBytes.toString('utf8'), stdoutBytes, stderr });
    }),
  );
}

export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** stdout's complete lines so far. */
  lines(): string[];
  /** Resolves with the first stdout line matching `pattern`, within `ms`. */
  waitForLine(pattern: RegExp, ms?: number): Promise<string>;
  /** Resolves once stdout holds `n` lines matching `pattern`. */
  waitForCount(pattern: RegExp, n: number, ms?: number): Promise<void>;
  exited: Promise<number | null>;
}

/** Start a long-running `devutil args...` (listen, tail). */
export function startCli(args: string[], env: Record<string, string | undefined> = {}): RunningCli {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (err += c));
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);
  const done = exited(child).then((code) => {
    process.off('exit', killOnExit);
    return code;
  });
  const lines = () => out.split('\n').slice(0, -1);
  const poll = async (found: () => boolean, what: string, ms: number) => {
    const deadline = Date.now() + ms;
    while (!found()) {
      if (child.exitCode !== null) throw new Error(`devutil exited (${child.exitCode}) before ${what}:\n${out}\n${err}`);
      if (Date.now() > deadline) throw new Error(`no ${what} within ${ms} ms:\nstdout:\n${out}\nstderr:\n${err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    lines,
    async waitForLine(pattern, ms = 20_000) {
      await poll(() => lines().some((l) => pattern.test(l)), `line matching ${pattern}`, ms);
      return lines().find((l) => pattern.test(l))!;
    },
    async waitForCount(pattern, n, ms = 20_000) {
      await poll(() => lines().filter((l) => pattern.test(l)).length >= n, `${n} lines matching ${pattern}`, ms);
    },
    exited: done,
  };
}

/** One request as the target app received it. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
  at: number;
}

export interface TargetApp {
  url: string;
  port: number;
  received: Received[];
  /** Stop accepting connections (the port refuses them). */
  down(): Promise<void>;
  /** Accept again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** The developer's local app: a loopback HTTP server recording every request and answering `status`. */
export async function startTargetApp(status = 200): Promise<TargetApp> {
  const received: Received[] = [];
  let server: Server;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          received.push({
            method: req.method!,
            url: req.url!,
            headers: req.headers,
            rawHeaders: req.rawHeaders,
            body: Buffer.concat(chunks),
            at: Date.now(),
          });
          res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
        });
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  await listen();
  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    received,
    down: close,
    up: listen,
    close,
  };
}

/** The bin's retained captures in full, oldest first. */
export async function capturesOf(service: { url: string }, key: string, binId: string): Promise<CaptureDetail[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 200) {
    const { json } = await api<{ requests: { request_id: string }[] }>(
      service,
      key,
      'GET',
      `/v1/bins/${binId}/requests?limit=200&offset=${offset}`,
    );
    ids.push(...json.requests.map((r) => r.request_id));
    if (json.requests.length < 200) break;
  }
  ids.reverse();
  const out: CaptureDetail[] = [];
  for (const id of ids)
    out.push((await api<{ request: CaptureDetail }>(service, key, 'GET', `/v1/bins/${binId}/requests/${id}`)).json.request);
  return out;
}

export interface CaptureDetail {
  request_id: string;
  method: string;
  path: string;
  query_string: string;
  headers: Record<string, string>;
  body: string;
  body_encoding: 'utf8' | 'base64';
}

/** The line `devutil listen` prints for a delivery (CONTRACT §9). */
export const DELIVERY_LINE = /^\d{2}:\d{2}:\d{2} {2}[A-Z]+ \/\S* {2}-> (\d{3} {2}\d+ ms|failed: .+)$/;
