import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { AREA_NAMES, BUILT_IN_PLANS, findPlan, parsePlans, type Area, type PlanCatalog } from './auth/plans.js';
import { parseRedisTarget } from './storage/redis/redis-url.js';

/** The validated, frozen configuration of one process (CONTRACT §7). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  store: 'sqlite' | 'redis';
  /** One Redis (`redis://`, `rediss://`) or a cluster's seed nodes (`redis+cluster://h1:p1,h2:p2`). */
  redisUrl: string;
  adminToken: string | null;
  publicBaseUrl: string | null;
  /** Passed to Fastify's `trustProxy`: false, true, or a list of trusted proxy addresses/CIDRs. */
  trustProxy: boolean | string[];
  areas: readonly Area[];
  publicAreas: readonly Area[];
  plans: PlanCatalog;
  /** The plan of the key created on first start (the owner's). */
  bootstrapPlan: string;
  /** Serve the web app at `/`. */
  ui: boolean;
  maxBodyBytes: number;
  binMaxRequests: number;
  replayAllowPrivate: boolean;
  /** Lower-cased `host` or `host:port` entries the replay SSRF guard lets through. */
  replayAllowHosts: readonly string[];
  /** `host:port` resolver addresses; empty = the system's resolvers. */
  dnsServers: readonly string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** SQLite `synchronous` pragma: NORMAL survives a process crash, FULL also a power loss. */
  sqliteSynchronous: 'NORMAL' | 'FULL';
}

/** One invalid variable and what is wrong with its value. */
export interface ConfigProblem {
  variable: string;
  problem: string;
}

/** Thrown when variables are invalid; the message names every one of them. */
export class ConfigError extends Error {
  /** Every invalid variable, in the order of {@link CONFIG_VARIABLES}. */
  readonly problems: readonly ConfigProblem[];

  constructor(variable: string, problem: string);
  constructor(problems: readonly ConfigProblem[]);
  constructor(first: string | readonly ConfigProblem[], problem = '') {
    const problems = typeof first === 'string' ? [{ variable: first, problem }] : first;
    super(
      problems.length === 1
        ? `Invalid configuration: ${problems[0]!.variable} ${problems[0]!.problem}`
        : `Invalid configuration (${problems.length} variables):\n${problems.map((p) => `  ${p.variable} ${p.problem}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }

  /** The first invalid variable. */
  get variable(): string {
    return this.problems[0]!.variable;
  }
}

type Env = Record<string, string | undefined>;

/** Every variable the service reads, with its meaning; `.env.example` mirrors this list. */
export const CONFIG_VARIABLES = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'STORE',
  'REDIS_URL',
  'ADMIN_TOKEN',
  'PUBLIC_BASE_URL',
  'TRUST_PROXY',
  'AREAS',
  'PUBLIC_AREAS',
  'PLANS_FILE',
  'MAX_BODY_BYTES',
  'BIN_MAX_REQUESTS',
  'REPLAY_ALLOW_PRIVATE',
  'REPLAY_ALLOW_HOSTS',
  'DNS_SERVERS',
  'LOG_LEVEL',
  'SQLITE_SYNCHRONOUS',
  'BOOTSTRAP_PLAN',
  'UI',
] as const;

function read(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function list(env: Env, name: string): string[] {
  const raw = read(env, name);
  return raw === undefined
    ? []
    : raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}

function areas(env: Env, name: string, fallback: readonly Area[]): Area[] {
  const items = list(env, name);
  if (read(env, name) === undefined) return [...fallback];
  for (const a of items) {
    if (!(AREA_NAMES as readonly string[]).includes(a)) {
      throw new ConfigError(name, `names an unknown area "${a}" (known: ${AREA_NAMES.join(', ')})`);
    }
  }
  return items as Area[];
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T, normalise = (s: string) => s): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const v = normalise(raw) as T;
  if (!allowed.includes(v)) throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  return v;
}

/** Host names of letters, digits and hyphens (RFC 1123), dot-separated labels of at most 63 characters. */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/** The address to listen on: an IP address (IPv6 with or without brackets) or a host name. */
function listenHost(env: Env, name: string, fallback: string): string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const unbracketed = /^\[(.*)\]$/.exec(raw)?.[1];
  if (unbracketed !== undefined && isIP(unbracketed) === 6) return unbracketed;
  if (isIP(raw) !== 0 || HOST_NAME.test(raw)) return raw;
  throw new ConfigError(name, `must be an IP address or a host name, got "${raw}"`);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${raw}"`);
  // Paths are appended to it: a query, a fragment or credentials would end up in the middle of every URL.
  if (parsed.search || parsed.hash || raw.includes('?') || raw.includes('#'))
    throw new ConfigError(name, `must not have a query or fragment, got "${raw}"`);
  if (parsed.username || parsed.password) throw new ConfigError(name, `must not carry a user name or password, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

/** `redis://`/`rediss://` for one server, `redis+cluster://host:port,host:port` for a cluster. */
function redisUrl(env: Env): string {
  const raw = read(env, 'REDIS_URL');
  if (raw === undefined) return 'redis://127.0.0.1:6379';
  try {
    parseRedisTarget(raw);
  } catch (err) {
    throw new ConfigError('REDIS_URL', (err as Error).message);
  }
  return raw.replace(/\/+$/, '');
}

function hostPort(entry: string): { host: string; port?: number } | null {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return isIP(bracketed[1]) === 6 ? { host: bracketed[1], port: bracketed[2] ? Number(bracketed[2]) : undefined } : null;
  if (isIP(entry) === 6) return { host: entry };
  const m = /^([^:\s]+)(?::(\d+))?$/.exec(entry);
  if (!m || !(isIP(m[1]!) === 4 || HOST_NAME.test(m[1]!))) return null;
  const port = m[2] ? Number(m[2]) : undefined;
  if (port !== undefined && (port < 1 || port > 65535)) return null;
  return { host: m[1]!, port };
}

function trustProxy(env: Env): boolean | string[] {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined) return false;
  const lower = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(lower)) return true;
  if (['false', '0', 'no', 'off'].includes(lower)) return false;
  const items = list(env, 'TRUST_PROXY');
  for (const item of items) {
    const [addr, bits, extra] = item.split('/');
    // A prefix no longer than the address (32 bits for IPv4, 128 for IPv6).
    const maxBits = isIP(addr) === 4 ? 32 : 128;
    if (!isIP(addr) || extra !== undefined || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > maxBits))) {
      throw new ConfigError('TRUST_PROXY', `must be true, false or a comma list of proxy addresses/CIDRs, got "${item}"`);
    }
  }
  return items;
}

function plans(env: Env): PlanCatalog {
  const file = read(env, 'PLANS_FILE');
  if (file === undefined) return BUILT_IN_PLANS;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError('PLANS_FILE', `cannot be read (${(err as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ConfigError('PLANS_FILE', `is not valid JSON (${(err as Error).message})`);
  }
  try {
    return parsePlans(doc);
  } catch (err) {
    throw new ConfigError('PLANS_FILE', `is invalid: ${(err as Error).message}`);
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function replayAllowHosts(env: Env): string[] {
  const hosts = list(env, 'REPLAY_ALLOW_HOSTS').map((h) => h.toLowerCase());
  for (const h of hosts) {
    if (!hostPort(h)) throw new ConfigError('REPLAY_ALLOW_HOSTS', `entries must be host or host:port, got "${h}"`);
  }
  return hosts;
}

/** Host names are allowed (`coredns:53` in a compose file): the server resolves them once at start (resolveDnsServers). */
function dnsServers(env: Env): string[] {
  const servers = list(env, 'DNS_SERVERS');
  for (const s of servers) {
    if (!hostPort(s)) throw new ConfigError('DNS_SERVERS', `entries must be ip, ip:port, host or host:port, got "${s}"`);
  }
  return servers;
}

function adminToken(env: Env): string | null {
  const token = read(env, 'ADMIN_TOKEN') ?? null;
  if (token !== null && token.length < 16) throw new ConfigError('ADMIN_TOKEN', 'must be at least 16 characters long');
  return token;
}

function enabledAreas(env: Env): Area[] {
  const enabled = areas(env, 'AREAS', AREA_NAMES);
  if (enabled.length === 0) throw new ConfigError('AREAS', 'must name at least one area');
  return enabled;
}

/** A plan of the catalog (PLANS_FILE's included); unchecked when the catalog itself is invalid. */
function bootstrapPlan(env: Env, catalog: PlanCatalog | undefined): string {
  const name = read(env, 'BOOTSTRAP_PLAN') ?? 'unlimited';
  if (catalog && !findPlan(catalog, name)) {
    throw new ConfigError('BOOTSTRAP_PLAN', `names an unknown plan "${name}" (known: ${Object.keys(catalog.plans).join(', ')})`);
  }
  return name;
}

/**
 * Read and validate every variable once; throws one {@link ConfigError} naming every invalid one.
 *
 * @example
 *   const config = loadConfig({ PORT: '9000', STORE: 'sqlite' });
 *   loadConfig({ PORT: 'eighty', STORE: 'mongo' }); // throws, naming PORT and STORE
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: ConfigProblem[] = [];
  // A variable's problem is noted and reading goes on, so one start names every invalid variable;
  // the config built from the placeholders is never returned.
  const check = <T>(readVariable: () => T): T => {
    try {
      return readVariable();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(...err.problems);
      return undefined as T;
    }
  };
  const planCatalog = check(() => plans(env));
  const config: Config = {
    port: check(() => int(env, 'PORT', 8080, 0, 65535)),
    host: check(() => listenHost(env, 'HOST', '127.0.0.1')),
    dataDir: read(env, 'DATA_DIR') ?? './data',
    store: check(() => oneOf(env, 'STORE', ['sqlite', 'redis'] as const, 'sqlite', (s) => s.toLowerCase())),
    redisUrl: check(() => redisUrl(env)),
    adminToken: check(() => adminToken(env)),
    publicBaseUrl: check(() => url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? null),
    trustProxy: check(() => trustProxy(env)),
    areas: check(() => enabledAreas(env)),
    publicAreas: check(() => areas(env, 'PUBLIC_AREAS', [])),
    plans: planCatalog,
    bootstrapPlan: check(() => bootstrapPlan(env, planCatalog)),
    ui: check(() => bool(env, 'UI', true)),
    maxBodyBytes: check(() => int(env, 'MAX_BODY_BYTES', 1024 * 1024, 1, 100 * 1024 * 1024)),
    binMaxRequests: check(() => int(env, 'BIN_MAX_REQUESTS', 1000, 1, 100000)),
    replayAllowPrivate: check(() => bool(env, 'REPLAY_ALLOW_PRIVATE', false)),
    replayAllowHosts: check(() => replayAllowHosts(env)),
    dnsServers: check(() => dnsServers(env)),
    logLevel: check(() =>
      oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info', (s) => s.toLowerCase()),
    ),
    sqliteSynchronous: check(() => oneOf(env, 'SQLITE_SYNCHRONOUS', ['NORMAL', 'FULL'] as const, 'NORMAL', (s) => s.toUpperCase())),
  };
  if (problems.length > 0) {
    const order = (p: ConfigProblem) => (CONFIG_VARIABLES as readonly string[]).indexOf(p.variable);
    throw new ConfigError(problems.sort((a, b) => order(a) - order(b)));
  }
  return deepFreeze(config);
}

/**
 * The base URL a person opens to reach this service: PUBLIC_BASE_URL when set, else
 * `http://HOST:PORT`, with an unspecified HOST (`0.0.0.0`, `::`) replaced by the loopback address
 * a browser on this machine can open.
 *
 * @example
 *   serviceBaseUrl(loadConfig({ HOST: '::', PORT: '9000' })) // 'http://[::1]:9000'
 */
export function serviceBaseUrl(config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>): string {
  if (config.publicBaseUrl !== null) return config.publicBaseUrl;
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  return `http://${isIP(host) === 6 ? `[${host}]` : host}:${config.port}`;
}

/**
 * DNS_SERVERS with host names replaced by an address of theirs (node:dns takes addresses only), looked
 * up once through the system resolver when the service starts; a name that does not resolve stops the start.
 *
 * @example
 *   await resolveDnsServers(['coredns:53', '1.1.1.1']) // ['172.18.0.5:53', '1.1.1.1']
 */
export async function resolveDnsServers(servers: readonly string[]): Promise<string[]> {
  return Promise.all(
    servers.map(async (entry) => {
      const hp = hostPort(entry);
      if (!hp || isIP(hp.host) !== 0) return entry;
      let address: string;
      let family: number;
      try {
        ({ address, family } = await lookup(hp.host));
      } catch (err) {
        throw new ConfigError('DNS_SERVERS', `cannot resolve "${hp.host}" (${(err as Error).message})`);
      }
      const host = family === 6 ? `[${address}]` : address;
      return hp.port === undefined ? address : `${host}:${hp.port}`;
    }),
  );
}
