import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp, type BuildOptions } from '../../src/app.js';
import { issueKey } from '../../src/auth/keys.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createSqliteStore } from '../../src/storage/sqlite/sqlite-store.js';
import type { Store } from '../../src/storage/types.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';

/** Real time plus an offset tests can move forward (expiry, rate windows, credit periods). */
export interface TestClock {
  now(): number;
  advance(ms: number): void;
}

export function createClock(start = Date.now()): TestClock {
  let offset = start - Date.now();
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms;
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  config: Config;
  clock: TestClock;
  /** A key on the `unlimited` plan (no rate limit, no credit limit) unless `plan` was given. */
  apiKey: string;
  keyId: string;
  /** Headers carrying `apiKey`. */
  auth: { 'x-api-key': string };
  /** Issue another key on the given plan. */
  newKey(plan?: string, name?: string): Promise<{ secret: string; id: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Environment variables as the service would read them (ADMIN_TOKEN and LOG_LEVEL preset). */
  env?: Record<string, string>;
  /** Plan of the default test key (default `unlimited`). */
  plan?: string;
  /** Use this store instead of a fresh in-memory SQLite one (it is closed with the app). */
  store?: Store;
  clock?: TestClock;
  /** The app's logger (none by default), e.g. `{ level: 'info', stream }` to read its lines. */
  logger?: FastifyServerOptions['logger'];
  /** Register test-only routes before the app is ready (they go through the same hooks). */
  extraRoutes?: (app: FastifyInstance) => void;
  /** How replay target names resolve (default node:dns), e.g. a table of test names. */
  resolveHost?: BuildOptions['resolveHost'];
  /** The built web app's directory (default `dist/web`). */
  webRoot?: string;
}

/**
 * Build the whole app on a fresh in-memory store with one key, ready for `app.inject()`.
 *
 * @example
 *   const t = await buildTestApp();
 *   const res = await t.app.inject({ method: 'GET', url: '/v1/account', headers: t.auth });
 *   await t.close();
 */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig({ ADMIN_TOKEN, LOG_LEVEL: 'silent', ...options.env });
  const store = options.store ?? createSqliteStore({ dataDir: ':memory:' });
  const clock = options.clock ?? createClock();
  const app = await buildApp({
    config,
    store,
    now: clock.now,
    logger: options.logger,
    resolveHost: options.resolveHost,
    webRoot: options.webRoot,
  });
  options.extraRoutes?.(app);
  await app.ready();
  const newKey = async (plan = 'unlimited', name = 'test') => {
    const { record, secret } = await issueKey(store.keys, { plan, name }, clock.now());
    return { secret, id: record.id };
  };
  const key = await newKey(options.plan ?? 'unlimited');
  return {
    app,
    store,
    config,
    clock,
    apiKey: key.secret,
    keyId: key.id,
    auth: { 'x-api-key': key.secret },
    newKey,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/** Listen on 127.0.0.1 with an ephemeral port; returns the base URL (`http://127.0.0.1:PORT`). */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}
