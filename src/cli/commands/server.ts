import type { Command } from 'commander';
import type { Config } from '../../config.js';
import { CliFailure, UsageError } from '../failures.js';
import { action, examples } from '../command-kit.js';

/** The service's configuration from the environment; an invalid variable is a failure with its message. */
async function configFromEnv(): Promise<Config> {
  const { ConfigError, loadConfig } = await import('../../config.js');
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliFailure(err.message, 1);
    throw err;
  }
}

/** Open the store the environment names, run `fn` on it, close it. */
async function withStore<T>(
  fn: (store: Awaited<ReturnType<typeof import('../../storage/index.js').createStore>>, config: Config) => Promise<T>,
) {
  const config = await configFromEnv();
  const { createStore } = await import('../../storage/index.js');
  const store = await createStore(config);
  try {
    return await fn(store, config);
  } finally {
    await store.close();
  }
}

/** `devutil serve` and `devutil keys ...`: the service itself and its key store (server modules load only here). */
export function registerServerCommands(program: Command): void {
  program
    .command('serve')
    .description('run the service (configuration from the environment: PORT, HOST, DATA_DIR, STORE, ...)')
    .addHelpText('after', examples('PORT=8080 DATA_DIR=./data devutil serve', 'STORE=redis REDIS_URL=redis://127.0.0.1:6379 devutil serve'))
    .action(
      action(async () => {
        const config = await configFromEnv();
        const { ListenError, startServer } = await import('../../server.js');
        try {
          await startServer(config);
        } catch (err) {
          if (err instanceof ListenError) throw new CliFailure(err.message, 1);
          throw err;
        }
        return undefined;
      }),
    );

  const keys = program
    .command('keys')
    .description('manage API keys in the store the environment names (STORE, DATA_DIR, REDIS_URL)')
    .addHelpText('after', examples('devutil keys create --plan pro --name laptop', 'devutil keys list', 'devutil keys revoke key_...'));

  keys
    .command('create')
    .description('create a key and print its secret once')
    .option('--plan <name>', 'plan of the key (default: the default plan)')
    .option('--name <text>', 'a name to recognise it by')
    .option('--marketplace-host <host>', 'register it as a marketplace key bound to HOST[:port]')
    .addHelpText('after', examples('devutil keys create --plan pro --name laptop'))
    .action(
      action(async (opts: { plan?: string; name?: string; marketplaceHost?: string }) =>
        withStore(async (store, config) => {
          const { issueKey, MARKETPLACE_HOST_PATTERN } = await import('../../auth/keys.js');
          const { findPlan } = await import('../../auth/plans.js');
          const plan = opts.plan ?? config.plans.defaultPlan;
          if (!findPlan(config.plans, plan))
            throw new UsageError(`unknown plan "${plan}" (known: ${Object.keys(config.plans.plans).join(', ')})`);
          const host = opts.marketplaceHost;
          if (host !== undefined && !new RegExp(MARKETPLACE_HOST_PATTERN).test(host))
            throw new UsageError(`--marketplace-host "${host}" is not a host name (with an optional :port)`);
          const { record, secret } = await issueKey(store.keys, { plan, name: opts.name, marketplaceHost: host });
          process.stdout.write(`API key: ${secret}\nkey_id: ${record.id}\nplan: ${record.plan}\n`);
          return 0;
        }),
      ),
    );

  keys
    .command('list')
    .description('list keys: id, digest hint, plan, state, name (never the secret)')
    .addHelpText('after', examples('devutil keys list', 'STORE=redis REDIS_URL=redis://127.0.0.1:6379 devutil keys list'))
    .action(
      action(async () =>
        withStore(async (store) => {
          const { keyToWire } = await import('../../auth/keys.js');
          for (const k of (await store.keys.listKeys()).map(keyToWire)) {
            process.stdout.write(`${k.key_id}\t${k.hint}\t${k.plan}\t${k.revoked_at ? 'revoked' : 'active'}\t${k.name}\n`);
          }
          return 0;
        }),
      ),
    );

  keys
    .command('revoke')
    .description('revoke a key')
    .argument('<key_id>')
    .addHelpText('after', examples('devutil keys revoke key_4fQ9xT2mZk8Lr0aBcDeFgH'))
    .action(
      action(async (id: string) =>
        withStore(async (store) => {
          if (!(await store.keys.revokeKey(id, Date.now()))) throw new UsageError(`no active key ${id}`);
          process.stdout.write(`revoked ${id}\n`);
          return 0;
        }),
      ),
    );

  keys
    .command('rotate')
    .description('replace a key with a new secret (the old one stops working)')
    .argument('<key_id>')
    .addHelpText('after', examples('devutil keys rotate key_4fQ9xT2mZk8Lr0aBcDeFgH'))
    .action(
      action(async (id: string) =>
        withStore(async (store) => {
          const { rotateKey } = await import('../../auth/keys.js');
          const rotated = await rotateKey(store.keys, id);
          if (!rotated) throw new UsageError(`no active key ${id}`);
          process.stdout.write(`API key: ${rotated.secret}\nkey_id: ${rotated.record.id}\n`);
          return 0;
        }),
      ),
    );
}
