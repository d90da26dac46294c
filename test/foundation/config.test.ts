import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CONFIG_VARIABLES, ConfigError, loadConfig, resolveDnsServers, serviceBaseUrl } from '../../src/config.js';
import { createStore } from '../../src/storage/index.js';

function file(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'devutil-config-')), 'plans.json');
  writeFileSync(path, content);
  return path;
}

describe('configuration', () => {
  it('defaults match CONTRACT §7', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.dataDir, './data');
    assert.equal(c.store, 'sqlite');
    assert.equal(c.adminToken, null);
    assert.equal(c.maxBodyBytes, 1048576);
    assert.equal(c.binMaxRequests, 1000);
    assert.equal(c.replayAllowPrivate, false);
    assert.deepEqual(c.areas, ['webhook', 'devtools', 'auth', 'dns', 'email', 'geo']);
    assert.deepEqual(c.publicAreas, []);
    assert.equal(c.plans.defaultPlan, 'free');
    assert.deepEqual(c.plans.plans.free, {
      name: 'free',
      areas: ['webhook', 'devtools', 'auth', 'dns', 'email', 'geo'],
      monthlyCredits: 1000,
      rateLimitPerMinute: 60,
      areaCosts: {},
    });
    assert.equal(c.plans.plans.pro.monthlyCredits, 100000);
    assert.equal(c.plans.plans.pro.rateLimitPerMinute, 600);
    assert.equal(c.plans.plans.unlimited.monthlyCredits, null);
    assert.equal(c.bootstrapPlan, 'unlimited');
    assert.equal(c.ui, true);
    assert.ok(Object.isFrozen(c) && Object.isFrozen(c.plans.plans.free));
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/x',
      STORE: 'redis',
      REDIS_URL: 'redis://127.0.0.1:6380',
      ADMIN_TOKEN: 'a-long-admin-token',
      PUBLIC_BASE_URL: 'https://hooks.example.com/',
      TRUST_PROXY: 'true',
      AREAS: 'webhook,dns',
      PUBLIC_AREAS: 'devtools',
      MAX_BODY_BYTES: '2048',
      BIN_MAX_REQUESTS: '5',
      REPLAY_ALLOW_PRIVATE: 'true',
      REPLAY_ALLOW_HOSTS: 'Localhost:8080,127.0.0.1',
      DNS_SERVERS: '127.0.0.1:5353,[::1]:53',
      LOG_LEVEL: 'WARN',
      SQLITE_SYNCHRONOUS: 'full',
      BOOTSTRAP_PLAN: 'pro',
      UI: 'false',
    });
    assert.equal(c.port, 9000);
    assert.equal(c.store, 'redis');
    assert.equal(c.publicBaseUrl, 'https://hooks.example.com');
    assert.equal(c.trustProxy, true);
    assert.deepEqual(c.areas, ['webhook', 'dns']);
    assert.deepEqual(c.replayAllowHosts, ['localhost:8080', '127.0.0.1']);
    assert.deepEqual(c.dnsServers, ['127.0.0.1:5353', '[::1]:53']);
    assert.equal(c.logLevel, 'warn');
    assert.equal(c.sqliteSynchronous, 'FULL');
    assert.equal(c.bootstrapPlan, 'pro');
    assert.equal(c.ui, false);
  });

  it('several invalid variables are all named at once, in the order of CONFIG_VARIABLES', () => {
    assert.throws(
      () => loadConfig({ STORE: 'mongo', PORT: 'eighty', HOST: 'localhost' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(
          err.message,
          'Invalid configuration (2 variables):\n  PORT must be a whole number, got "eighty"\n  STORE must be one of sqlite, redis, got "mongo"',
        );
        assert.deepEqual(err.problems, [
          { variable: 'PORT', problem: 'must be a whole number, got "eighty"' },
          { variable: 'STORE', problem: 'must be one of sqlite, redis, got "mongo"' },
        ]);
        assert.equal(err.variable, 'PORT');
        return true;
      },
    );
  });

  it('BOOTSTRAP_PLAN names a built-in plan or one of PLANS_FILE; an unknown one is refused with the known names', () => {
    assert.equal(loadConfig({ BOOTSTRAP_PLAN: 'free' }).bootstrapPlan, 'free');
    assert.equal(
      loadConfig({ BOOTSTRAP_PLAN: 'team', PLANS_FILE: file('{"plans":{"team":{"monthly_credits":10}}}') }).bootstrapPlan,
      'team',
    );
    assert.throws(() => loadConfig({ BOOTSTRAP_PLAN: 'gold' }), {
      message: 'Invalid configuration: BOOTSTRAP_PLAN names an unknown plan "gold" (known: free, pro, unlimited)',
    });
    // Not a plan although every object has it.
    assert.throws(() => loadConfig({ BOOTSTRAP_PLAN: 'constructor' }), /BOOTSTRAP_PLAN names an unknown plan "constructor"/);
    // An unreadable PLANS_FILE is the one problem: the plan is not called unknown as well.
    assert.throws(
      () => loadConfig({ BOOTSTRAP_PLAN: 'team', PLANS_FILE: '/nonexistent/plans.json' }),
      (err: unknown) => err instanceof ConfigError && err.problems.length === 1 && err.variable === 'PLANS_FILE',
    );
  });

  const invalid: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ HOST: 'not a host!!' }, 'HOST'],
    [{ HOST: 'http://localhost' }, 'HOST'],
    [{ HOST: 'a..b' }, 'HOST'],
    [{ STORE: 'mongo' }, 'STORE'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN'],
    [{ PUBLIC_BASE_URL: 'not a url' }, 'PUBLIC_BASE_URL'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '::1/129' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/8/8' }, 'TRUST_PROXY'],
    [{ AREAS: 'webhook,images' }, 'AREAS'],
    [{ PUBLIC_AREAS: 'admin' }, 'PUBLIC_AREAS'],
    [{ MAX_BODY_BYTES: '-1' }, 'MAX_BODY_BYTES'],
    [{ BIN_MAX_REQUESTS: '0' }, 'BIN_MAX_REQUESTS'],
    [{ REPLAY_ALLOW_PRIVATE: 'perhaps' }, 'REPLAY_ALLOW_PRIVATE'],
    [{ REPLAY_ALLOW_HOSTS: 'a b' }, 'REPLAY_ALLOW_HOSTS'],
    [{ DNS_SERVERS: 'dns..google' }, 'DNS_SERVERS'],
    [{ DNS_SERVERS: 'ns1/x' }, 'DNS_SERVERS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    // An entry is a host or host:port: `*` is no wildcard, and paths or user names are no hosts.
    [{ REPLAY_ALLOW_HOSTS: '*' }, 'REPLAY_ALLOW_HOSTS'],
    [{ REPLAY_ALLOW_HOSTS: 'foo/bar' }, 'REPLAY_ALLOW_HOSTS'],
    [{ REPLAY_ALLOW_HOSTS: 'user@host' }, 'REPLAY_ALLOW_HOSTS'],
    // Paths are appended to PUBLIC_BASE_URL: a query, a fragment or credentials would land inside every URL.
    [{ PUBLIC_BASE_URL: 'http://x.example/?q=1' }, 'PUBLIC_BASE_URL'],
    [{ PUBLIC_BASE_URL: 'http://x.example/#f' }, 'PUBLIC_BASE_URL'],
    [{ PUBLIC_BASE_URL: 'http://x.example/?' }, 'PUBLIC_BASE_URL'],
    [{ PUBLIC_BASE_URL: 'https://u:p@x.example' }, 'PUBLIC_BASE_URL'],
    [{ SQLITE_SYNCHRONOUS: 'OFF' }, 'SQLITE_SYNCHRONOUS'],
    [{ PLANS_FILE: '/nonexistent/plans.json' }, 'PLANS_FILE'],
    [{ BOOTSTRAP_PLAN: 'gold' }, 'BOOTSTRAP_PLAN'],
    [{ UI: 'maybe' }, 'UI'],
    [{ AREAS: ',' }, 'AREAS'],
  ];
  for (const [env, variable] of invalid) {
    it(`an invalid ${variable} (${JSON.stringify(Object.values(env)[0])}) is refused naming the variable`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && err.variable === variable && err.message.includes(variable),
      );
    });
  }

  it('a DATA_DIR that cannot hold the database (a path under a file) is refused naming the variable', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'devutil-config-')), 'a-file');
    writeFileSync(file, 'x');
    await assert.rejects(
      createStore({ ...loadConfig({}), dataDir: join(file, 'sub') }),
      (err: unknown) => err instanceof ConfigError && err.variable === 'DATA_DIR' && /ENOTDIR/.test(err.message),
    );
  });

  it('DNS_SERVERS takes host names (`coredns:53`), resolved to an address once when the server starts', async () => {
    assert.deepEqual(loadConfig({ DNS_SERVERS: 'localhost:5353,127.0.0.1,[::1]:53' }).dnsServers, [
      'localhost:5353',
      '127.0.0.1',
      '[::1]:53',
    ]);
    // localhost comes from the hosts file: no query leaves the machine.
    const resolved = await resolveDnsServers(['localhost:5353', '127.0.0.1', '[::1]:53', '10.0.0.1:53']);
    assert.ok(['127.0.0.1:5353', '[::1]:5353'].includes(resolved[0]!), resolved[0]);
    assert.deepEqual(resolved.slice(1), ['127.0.0.1', '[::1]:53', '10.0.0.1:53']);
  });

  it('PLANS_FILE area_costs must be an object, not an array', () => {
    assert.throws(
      () => loadConfig({ PLANS_FILE: file('{"plans":{"x":{"area_costs":[]}}}') }),
      /PLANS_FILE is invalid: plan "x": "area_costs" must be an object/,
    );
  });

  it('HOST takes IPv4 and IPv6 addresses (with or without brackets) and host names', () => {
    for (const [raw, host] of [
      ['0.0.0.0', '0.0.0.0'],
      ['::', '::'],
      ['[::1]', '::1'],
      ['localhost', 'localhost'],
      ['svc-1.internal.example', 'svc-1.internal.example'],
    ]) {
      assert.equal(loadConfig({ HOST: raw }).host, host);
    }
  });

  it('PLANS_FILE that is not JSON or names an unknown area is refused with a clear message', () => {
    assert.throws(() => loadConfig({ PLANS_FILE: file('{plans:') }), /PLANS_FILE is not valid JSON/);
    assert.throws(
      () => loadConfig({ PLANS_FILE: file('{"plans":{"x":{"areas":["images"]}}}') }),
      /PLANS_FILE is invalid: plan "x": unknown area "images"/,
    );
    assert.throws(() => loadConfig({ PLANS_FILE: file('{"default_plan":"gold"}') }), /default_plan/);
    assert.throws(() => loadConfig({ PLANS_FILE: file('{"plans":{"x":{"monthly_credits":-5}}}') }), /monthly_credits/);
  });

  it('PLANS_FILE with an unknown member (a typo) is refused, naming it, instead of meaning "unlimited"', () => {
    assert.throws(
      () => loadConfig({ PLANS_FILE: file('{"plans":{"typo":{"monthly_credit":5,"rate_limit_per_minut":3}}}') }),
      /PLANS_FILE is invalid: plan "typo": unknown member "monthly_credit", "rate_limit_per_minut"/,
    );
    assert.throws(() => loadConfig({ PLANS_FILE: file('{"defaultPlan":"pro"}') }), /PLANS_FILE is invalid: unknown member "defaultPlan"/);
    assert.throws(() => loadConfig({ PLANS_FILE: file('{"plans":{"x":[]}}') }), /plan "x" must be an object/);
    // Annotations mean nothing and stop nothing: $schema, $comment, _-prefixed members, description.
    const annotated = loadConfig({
      PLANS_FILE: file(
        '{"$schema":"./plans.schema.json","_note":"x","plans":{"team":{"description":"ours","$comment":"y","monthly_credits":1,"rate_limit_per_minute":2}}}',
      ),
    });
    assert.equal(annotated.plans.plans.team!.rateLimitPerMinute, 2);
  });

  it('PLANS_FILE: names of Object.prototype members are no plan unless the file defines them', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      assert.throws(() => loadConfig({ PLANS_FILE: file(JSON.stringify({ default_plan: name })) }), /default_plan/, name);
    }
    const c = loadConfig({
      PLANS_FILE: file('{"default_plan":"constructor","plans":{"constructor":{"monthly_credits":7,"rate_limit_per_minute":null}}}'),
    });
    assert.equal(c.plans.defaultPlan, 'constructor');
    assert.equal(c.plans.plans['constructor']!.monthlyCredits, 7);
  });

  it('PLANS_FILE adds and replaces plans over the built-in ones', () => {
    const c = loadConfig({
      PLANS_FILE: file(
        JSON.stringify({
          default_plan: 'team',
          plans: {
            team: { areas: ['webhook'], monthly_credits: 10, rate_limit_per_minute: 5, area_costs: { webhook: 1 } },
            free: { monthly_credits: 5 },
          },
        }),
      ),
    });
    assert.equal(c.plans.defaultPlan, 'team');
    assert.deepEqual(c.plans.plans.team, {
      name: 'team',
      areas: ['webhook'],
      monthlyCredits: 10,
      rateLimitPerMinute: 5,
      areaCosts: { webhook: 1 },
    });
    assert.equal(c.plans.plans.free.monthlyCredits, 5);
    assert.equal(c.plans.plans.pro.monthlyCredits, 100000);
  });

  it('the service refuses to start on invalid values, naming each on a line of its own', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
      env: { ...process.env, PORT: 'eighty', UI: 'maybe', DATA_DIR: mkdtempSync(join(tmpdir(), 'devutil-')) },
      encoding: 'utf8',
      timeout: 90_000,
    });
    assert.equal(run.status, 1);
    assert.equal(
      run.stderr,
      'Invalid configuration (2 variables):\n  PORT must be a whole number, got "eighty"\n  UI must be true or false, got "maybe"\n',
    );
  });

  it('the service says which HOST and PORT it cannot listen on (a port in use)', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          PORT: String(port),
          LOG_LEVEL: 'silent',
          DATA_DIR: mkdtempSync(join(tmpdir(), 'devutil-')),
        },
        encoding: 'utf8',
        timeout: 90_000,
      });
      assert.equal(run.status, 1);
      assert.match(run.stderr, new RegExp(`^Cannot listen on HOST=127\\.0\\.0\\.1 PORT=${port}: .*EADDRINUSE`, 'm'));
    } finally {
      blocker.close();
    }
  });

  it('`devutil --help` prints the usage and exits 0; an unknown command is a usage error (exit 2)', () => {
    const help = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', '--help'], { encoding: 'utf8', timeout: 90_000 });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^Usage: devutil \[options\] \[command\]\n/);
    assert.match(help.stdout, /^ {2}serve {2,}run the service/m);
    const unknown = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'frobnicate'], {
      encoding: 'utf8',
      timeout: 90_000,
    });
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^error: unknown command 'frobnicate'\n/);
  });

  it('the base URL printed with the bootstrap key: PUBLIC_BASE_URL, else http://HOST:PORT that a browser here can open', () => {
    assert.equal(serviceBaseUrl(loadConfig({})), 'http://127.0.0.1:8080');
    assert.equal(serviceBaseUrl(loadConfig({ PUBLIC_BASE_URL: 'https://hooks.example.com/', PORT: '9000' })), 'https://hooks.example.com');
    assert.equal(serviceBaseUrl(loadConfig({ HOST: '0.0.0.0', PORT: '9000' })), 'http://127.0.0.1:9000');
    assert.equal(serviceBaseUrl(loadConfig({ HOST: '::', PORT: '9000' })), 'http://[::1]:9000');
    assert.equal(serviceBaseUrl(loadConfig({ HOST: '[fd00::5]' })), 'http://[fd00::5]:8080');
    assert.equal(serviceBaseUrl(loadConfig({ HOST: 'devutil.internal' })), 'http://devutil.internal:8080');
  });

  it('.env.example lists every variable', () => {
    const example = readFileSync('.env.example', 'utf8');
    for (const name of CONFIG_VARIABLES) assert.match(example, new RegExp(`^#? ?${name}=`, 'm'), name);
  });
});
