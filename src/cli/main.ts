#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { issueKey, keyToWire, MARKETPLACE_HOST_PATTERN, rotateKey } from '../auth/keys.js';
import { findPlan } from '../auth/plans.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { ListenError, startServer } from '../server.js';
import { createStore } from '../storage/index.js';

const USAGE = `Usage:
  devutil serve                         run the service (configuration from the environment)
  devutil keys create [--plan NAME] [--name TEXT] [--marketplace-host HOST]
  devutil keys list
  devutil keys revoke KEY_ID
  devutil keys rotate KEY_ID

Keys are written to the store the environment names (STORE, DATA_DIR, REDIS_URL).`;

class UsageError extends Error {}

async function keysCommand(config: Config, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { plan: { type: 'string' }, name: { type: 'string' }, 'marketplace-host': { type: 'string' } },
  });
  const store = await createStore(config);
  try {
    if (action === 'create') {
      const plan = values.plan ?? config.plans.defaultPlan;
      if (!findPlan(config.plans, plan))
        throw new UsageError(`unknown plan "${plan}" (known: ${Object.keys(config.plans.plans).join(', ')})`);
      const host = values['marketplace-host'];
      if (host !== undefined && !new RegExp(MARKETPLACE_HOST_PATTERN).test(host))
        throw new UsageError(`--marketplace-host "${host}" is not a host name (with an optional :port)`);
      const { record, secret } = await issueKey(store.keys, { plan, name: values.name, marketplaceHost: values['marketplace-host'] });
      process.stdout.write(`API key: ${secret}\nkey_id: ${record.id}\nplan: ${record.plan}\n`);
    } else if (action === 'list') {
      for (const k of (await store.keys.listKeys()).map(keyToWire)) {
        process.stdout.write(`${k.key_id}\t${k.hint}\t${k.plan}\t${k.revoked_at ? 'revoked' : 'active'}\t${k.name}\n`);
      }
    } else if (action === 'revoke' && positionals[0]) {
      if (!(await store.keys.revokeKey(positionals[0], Date.now()))) throw new UsageError(`no active key ${positionals[0]}`);
      process.stdout.write(`revoked ${positionals[0]}\n`);
    } else if (action === 'rotate' && positionals[0]) {
      const rotated = await rotateKey(store.keys, positionals[0]);
      if (!rotated) throw new UsageError(`no active key ${positionals[0]}`);
      process.stdout.write(`API key: ${rotated.secret}\nkey_id: ${rotated.record.id}\n`);
    } else {
      throw new UsageError(USAGE);
    }
  } finally {
    await store.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command !== 'serve' && command !== 'keys') throw new UsageError(USAGE);
  const config = loadConfig(process.env);
  if (command === 'serve') await startServer(config);
  else await keysCommand(config, args);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof UsageError || err instanceof ListenError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`devutil: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(err instanceof UsageError ? 64 : 1);
});
