import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { issueKey } from './auth/keys.js';
import { resolveDnsServers, serviceBaseUrl, type Config } from './config.js';
import { createStore } from './storage/index.js';
import type { Store } from './storage/types.js';

/** Socket limits so a slow or idle client cannot hold a connection forever. */
export const SERVER_TIMEOUTS = {
  /** Whole request (headers and body) must arrive within this time. */
  requestTimeout: 60_000,
  /** Idle keep-alive sockets are closed after this. */
  keepAliveTimeout: 5_000,
  /** Headers must arrive within this time. */
  headersTimeout: 15_000,
  /**
   * How often Node checks open connections against headersTimeout and requestTimeout; its default
   * (30 s) let a slow client hold a socket up to 30 s past those limits.
   */
  connectionsCheckingInterval: 1_000,
  /** Mock delays are at most 30 s; in-flight requests get this long at shutdown. */
  shutdownGraceMs: 35_000,
};

/** While shutting down, connections that have gone idle are closed this often. */
const IDLE_CLOSE_INTERVAL_MS = 100;

/**
 * Connections the kernel may hold complete but not yet accepted. Node's default (511) drops the
 * handshakes of a burst of 1000 new clients past it, and each dropped one is retried only after
 * a 1 s SYN timeout; the kernel caps this at net.core.somaxconn.
 */
export const LISTEN_BACKLOG = 4096;

/** The service could not listen where HOST and PORT say (address in use, not local, name not found). */
export class ListenError extends Error {
  constructor(config: Pick<Config, 'host' | 'port'>, cause: unknown) {
    super(`Cannot listen on HOST=${config.host} PORT=${config.port}: ${(cause as Error).message}`, { cause });
    this.name = 'ListenError';
  }
}

/**
 * On an empty key store, create the owner's key on BOOTSTRAP_PLAN and print it once, with the web
 * app's address that signs in with it (CONTRACT §1).
 */
async function ensureBootstrapKey(store: Store, config: Config): Promise<void> {
  if ((await store.keys.countKeys()) > 0) return;
  const { secret } = await issueKey(store.keys, { name: 'bootstrap', plan: config.bootstrapPlan });
  process.stdout.write(`API key: ${secret}\n`);
  // The key travels in the fragment, which browsers never send to the server.
  if (config.ui) process.stdout.write(`Web app: ${serviceBaseUrl(config)}/#key=${secret}\n`);
}

/**
 * Run the service: open the store, listen, and on SIGTERM/SIGINT stop accepting, let in-flight
 * requests finish, close the store and exit 0.
 */
export async function startServer(config: Config): Promise<FastifyInstance> {
  // Host names in DNS_SERVERS become addresses, once (node:dns takes addresses only).
  config = { ...config, dnsServers: await resolveDnsServers(config.dnsServers) };
  const store = await createStore(config);
  await ensureBootstrapKey(store, config);
  const app = await buildApp({
    config,
    store,
    logger: { level: config.logLevel },
    serverOptions: {
      requestTimeout: SERVER_TIMEOUTS.requestTimeout,
      keepAliveTimeout: SERVER_TIMEOUTS.keepAliveTimeout,
      forceCloseConnections: 'idle',
      // Passed to http.createServer (Fastify's HTTP/1 options type does not list it).
      ...({ http: { connectionsCheckingInterval: SERVER_TIMEOUTS.connectionsCheckingInterval } } as object),
    },
  });
  app.server.headersTimeout = SERVER_TIMEOUTS.headersTimeout;
  app.addHook('onClose', async () => store.close());
  try {
    await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  } catch (err) {
    await app.close().catch(() => undefined);
    throw new ListenError(config, err);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown grace period over; exiting');
      process.exit(1);
    }, SERVER_TIMEOUTS.shutdownGraceMs);
    force.unref();
    // Node closes the connections idle when closing starts; a keep-alive connection whose response
    // ends later (a 30 s mock delay) would stay open until keepAliveTimeout, past the grace period.
    const idleCloser = setInterval(() => app.server.closeIdleConnections(), IDLE_CLOSE_INTERVAL_MS);
    idleCloser.unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  return app;
}
