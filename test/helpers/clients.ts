import { spawn, spawnSync } from 'node:child_process';

/** What a client run gave back. */
export interface ClientRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run a command-line client with `input` on stdin (UTF-8), at most 30 s.
 *
 * @example
 *   runClient('sqlite3', [':memory:'], 'SELECT 1;').stdout // '1\n'
 */
export function runClient(command: string, args: string[], input = '', env: Record<string, string> = {}): ClientRun {
  const run = spawnSync(command, args, {
    input,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: run.error ? null : run.status, stdout: run.stdout ?? '', stderr: run.stderr ?? String(run.error ?? '') };
}

/**
 * {@link runClient} without blocking: for a client that talks to a server in this process.
 *
 * @example
 *   (await runClientAsync('curl', ['-s', `${base}/healthz`])).stdout // '{"status":"ok"}'
 */
export function runClientAsync(command: string, args: string[], input = ''): Promise<ClientRun> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { timeout: 30_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', (err) => resolve({ status: null, stdout, stderr: String(err) }));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

const answers = (command: string, args: string[], input = '', env: Record<string, string> = {}) =>
  runClient(command, args, input, env).status === 0;

/**
 * Why tests that use `client` cannot run here (undefined when they can). With REQUIRE_CLIENTS=1
 * (as in CI, which installs them) a missing client is an error instead of a skip.
 */
function missing(client: string, present: boolean, install: string): string | undefined {
  if (present) return undefined;
  if (process.env.REQUIRE_CLIENTS === '1') throw new Error(`REQUIRE_CLIENTS=1 but ${client} is not installed (${install})`);
  return `${client} is not installed here (${install}; REQUIRE_CLIENTS=1 makes this an error)`;
}

/** Why the sqlite3 CLI tests cannot run (undefined when they can). */
export const sqlite3Missing = (): string | undefined =>
  missing('the sqlite3 CLI', answers('sqlite3', ['-version']), 'apt-get install sqlite3');

/** Why the curl tests cannot run (undefined when they can). */
export const curlMissing = (): string | undefined => missing('curl', answers('curl', ['--version']), 'apt-get install curl');

/** A Python interpreter that has pyotp (Debian's python3-pyotp goes to /usr/bin/python3), or undefined. */
export const findPyotpPython = (): string | undefined =>
  ['/usr/bin/python3', 'python3'].find((python) => answers(python, ['-c', 'import pyotp']));

/** Why the pyotp tests cannot run (undefined when they can). */
export const pyotpMissing = (): string | undefined => missing('pyotp', findPyotpPython() !== undefined, 'apt-get install python3-pyotp');

/** How psql reaches the test server: PGHOST, PGUSER, PGDATABASE, else 127.0.0.1 as postgres. */
export const PSQL_ENV = {
  PGHOST: process.env.PGHOST ?? '127.0.0.1',
  PGUSER: process.env.PGUSER ?? 'postgres',
  PGDATABASE: process.env.PGDATABASE ?? 'postgres',
  PGCLIENTENCODING: 'UTF8',
  PGCONNECT_TIMEOUT: '5',
};

/** Why the psql tests cannot run (undefined when they can): a PostgreSQL server is optional, so this never throws. */
export function postgresMissing(): string | undefined {
  if (!answers('psql', ['--version'])) return 'psql is not installed here (apt-get install postgresql-client)';
  const probe = runClient('psql', ['-X', '-At', '-c', 'SELECT 1'], '', PSQL_ENV);
  if (probe.status !== 0) {
    const why = probe.stderr.trim().split('\n')[0];
    return `no PostgreSQL server lets psql in as ${PSQL_ENV.PGUSER}@${PSQL_ENV.PGHOST}/${PSQL_ENV.PGDATABASE} (${why}; set PGHOST, PGPORT, PGUSER, PGDATABASE)`;
  }
  return undefined;
}

/** mysql client arguments for the test server: MYSQL_HOST (else 127.0.0.1), MYSQL_USER (else root), no password. */
export const MYSQL_ARGS = [
  `--host=${process.env.MYSQL_HOST ?? '127.0.0.1'}`,
  `--user=${process.env.MYSQL_USER ?? 'root'}`,
  '--connect-timeout=5',
  '--default-character-set=utf8mb4',
];

/** Why the mysql tests cannot run (undefined when they can): a MySQL or MariaDB server is optional, so this never throws. */
export function mysqlMissing(): string | undefined {
  if (!answers('mysql', ['--version'])) return 'the mysql client is not installed here (apt-get install mariadb-client)';
  const probe = runClient('mysql', [...MYSQL_ARGS, '-N', '-e', 'SELECT 1']);
  if (probe.status !== 0)
    return `no MySQL or MariaDB server lets the mysql client in (${MYSQL_ARGS[0]} ${MYSQL_ARGS[1]}: ${probe.stderr.trim().split('\n')[0]}; set MYSQL_HOST, MYSQL_USER)`;
  return undefined;
}
