import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertBuilt, CLI_ENTRY, DELIVERY_LINE, issueKey, runCli, startService, startTargetApp, type Service } from './cli-helpers.js';

// On a terminal (a pseudo-terminal from util-linux `script`): colour unless NO_COLOR, and a key prompt that does not echo (CONTRACT §9).

const skip = spawnSync('script', ['--version']).status === 0 ? undefined : 'util-linux script is not installed';

interface Terminal {
  /** Everything printed so far (the terminal turns each \n into \r\n). */
  output(): string;
  /** Type on the terminal, as the user would; `end` also closes its input. */
  type(text: string, end?: boolean): void;
  /** Resolves once the output matches `pattern`, within `ms`. */
  waitFor(pattern: RegExp, ms?: number): Promise<void>;
  closed: Promise<number | null>;
}

/** Run `devutil args...` on a pseudo-terminal of its own. */
function openTerminal(args: string[], env: Record<string, string | undefined>): Terminal {
  const quoted = [process.execPath, CLI_ENTRY, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  // exec: devutil replaces the shell script starts ($SHELL, else sh), so Ctrl+C reaches devutil alone
  // (dash, unlike bash, would stay as its parent and die of the SIGINT, giving 130).
  const child = spawn('script', ['-qec', `exec ${quoted}`, '/dev/null'], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  // Typing after it closed is not an error of the test.
  child.stdin.on('error', () => undefined);
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  let open = true;
  void closed.then(() => (open = false));
  return {
    output: () => output,
    type(text, end = false) {
      if (end) child.stdin.end(text);
      else child.stdin.write(text);
    },
    async waitFor(pattern, ms = 20_000) {
      const deadline = Date.now() + ms;
      while (!pattern.test(output)) {
        if (!open) throw new Error(`devutil closed its terminal before printing ${pattern}:\n${output}`);
        if (Date.now() > deadline) throw new Error(`no ${pattern} within ${ms} ms:\n${output}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    closed,
  };
}

/** Run `devutil args...` on a pseudo-terminal, typing `input` once it has printed `prompt`; resolves with all it printed. */
async function onTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  input = '',
  prompt?: RegExp,
): Promise<{ status: number | null; output: string }> {
  const terminal = openTerminal(args, env);
  // Typed only once the prompt is up, so the terminal is already in raw mode and cannot echo it.
  if (prompt) await terminal.waitFor(prompt);
  terminal.type(input, true);
  return { status: await terminal.closed, output: terminal.output() };
}

describe('devutil on a terminal', { skip }, () => {
  let service: Service;
  let env: Record<string, string | undefined>;
  let binId: string;
  let requestId: string;
  before(async () => {
    assertBuilt();
    service = await startService();
    const key = await issueKey(service);
    env = { DEVUTIL_URL: service.url, DEVUTIL_KEY: key, NO_COLOR: undefined, XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'devutil-tty-')) };
    const created = await runCli(['bins', 'create'], { env });
    binId = created.stdout.trim().split('/').at(-1)!;
    const res = await fetch(created.stdout.trim(), { method: 'POST', headers: { 'x-one': '1' }, body: 'hi' });
    requestId = ((await res.json()) as { request_id: string }).request_id;
  });
  after(() => service?.stop());

  it('colours output on a terminal, not with NO_COLOR set, and not when piped', async () => {
    const args = ['requests', 'show', binId, requestId];
    const [tty, noColor, piped] = await Promise.all([
      onTerminal(args, env),
      onTerminal(args, { ...env, NO_COLOR: '1' }),
      runCli(args, { env }),
    ]);
    assert.equal(tty.status, 0, tty.output);
    assert.match(tty.output, /\x1b\[1mPOST\x1b\[22m \//);
    assert.match(tty.output, /\x1b\[1mx-one\x1b\[22m: 1/);
    assert.equal(noColor.status, 0);
    assert.doesNotMatch(noColor.output, /\x1b\[/);
    assert.match(noColor.output, /^ {2}x-one: 1\r?$/m);
    assert.equal(piped.status, 0);
    assert.doesNotMatch(piped.stdout, /\x1b\[/);
    assert.match(piped.stdout, /^ {2}x-one: 1$/m);
  });

  it('a captured body cannot steer the terminal: its control characters are shown as \\xNN', async () => {
    const catchUrl = `${service.url}/v1/catch/${binId}`;
    const body = 'a\x1b[2Jclear\x1b]0;pwned\x07\tb\r\nc\u009b1m';
    const res = await fetch(catchUrl, { method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body });
    const { request_id } = (await res.json()) as { request_id: string };
    const args = ['requests', 'show', binId, request_id];
    const [tty, piped] = await Promise.all([onTerminal(args, { ...env, NO_COLOR: '1' }), runCli(args, { env })]);
    assert.equal(tty.status, 0, tty.output);
    assert.doesNotMatch(tty.output, /[\x07\x1b\x9b]/);
    assert.match(tty.output, /^ {2}a\\x1b\[2Jclear\\x1b\]0;pwned\\x07\tb\\x0d\r?$/m);
    assert.match(tty.output, /^ {2}c\\x9b1m\r?$/m);
    assert.match(piped.stdout, /^ {2}a\\x1b\[2Jclear\\x1b\]0;pwned\\x07\tb\\x0d\n {2}c\\x9b1m\n/m);
    // The exact bytes are still there for whoever asks for them.
    const exact = await runCli([...args, '--body'], { env });
    assert.equal(exact.stdout, body);
  });

  it('login asks for the key without echoing it and saves it', async () => {
    const key = env.DEVUTIL_KEY!;
    const loginEnv = { ...env, DEVUTIL_KEY: undefined, DEVUTIL_URL: undefined };
    const run = await onTerminal(['login', '--url', service.url], loginEnv, `${key}\r`, /API key: /);
    assert.equal(run.status, 0, run.output);
    assert.match(run.output, /^API key: /);
    assert.ok(!run.output.includes(key), 'the key was echoed');
    assert.match(run.output, /Logged in to http:\/\/127\.0\.0\.1:\d+ as key_\w+ \(plan unlimited\)\./);
    const file = join(env.XDG_CONFIG_HOME!, 'devutil', 'config.json');
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { url: service.url, key });
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it('listen colours its delivery lines on a terminal, not with NO_COLOR; Ctrl+C typed there stops it with exit 0', async () => {
    const target = await startTargetApp();
    const args = ['listen', '--forward-to', target.url];
    const [coloured, plain] = [openTerminal(args, env), openTerminal(args, { ...env, NO_COLOR: '1' })];
    // Every check shows what both terminals printed, as a failure on a busy machine is otherwise hard to read.
    const printed = () => `\ncoloured terminal:\n${coloured.output()}\nplain terminal:\n${plain.output()}`;
    try {
      await Promise.all([coloured.waitFor(/Forwarding \S+ -> /), plain.waitFor(/Forwarding \S+ -> /)]);
      for (const terminal of [coloured, plain]) {
        const catchUrl = /Forwarding (\S+) -> /.exec(terminal.output())![1]!;
        assert.equal((await fetch(`${catchUrl}/tty?a=1`, { method: 'POST', body: 'x' })).status, 200, printed());
      }
      await Promise.all([coloured.waitFor(/ ms\r\n/), plain.waitFor(/ ms\r\n/)]);
      assert.match(
        coloured.output(),
        /\r\n\x1b\[2m\d{2}:\d{2}:\d{2}\x1b\[22m {2}\x1b\[1mPOST\x1b\[22m \/tty\?a=1 {2}-> \x1b\[32m200\x1b\[39m {2}\d+ ms\r\n/,
        printed(),
      );
      assert.doesNotMatch(plain.output(), /\x1b\[/, printed());
      const line = plain
        .output()
        .split('\r\n')
        .find((l) => l.includes('/tty'));
      assert.match(line ?? '', DELIVERY_LINE, printed());
      for (const terminal of [coloured, plain]) terminal.type('\x03');
      assert.deepEqual(await Promise.all([coloured.closed, plain.closed]), [0, 0], printed());
      assert.match(plain.output(), /Stopping after the delivery in flight/, printed());
      assert.equal(target.received.length, 2, printed());
    } finally {
      for (const terminal of [coloured, plain]) terminal.type('', true);
      await target.close();
    }
  });
});
