import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from './failures.js';

/** Where a client command sends its requests, and with which key. */
export interface Connection {
  /** The service's base URL, without a trailing slash. */
  url: string;
  key?: string;
  /** The URL `devutil login` saved a key for, when that key was not used because the URL given is another one. */
  savedKeyUrl?: string;
}

/** What `devutil login` saves (CONTRACT §9). */
export interface SavedConnection {
  url: string;
  key: string;
}

type Env = Record<string, string | undefined>;

/**
 * The config file: `$XDG_CONFIG_HOME/devutil/config.json`, else `~/.config/devutil/config.json`.
 *
 * @example
 *   configPath({ XDG_CONFIG_HOME: '/tmp/x' }) // '/tmp/x/devutil/config.json'
 */
export function configPath(env: Env = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'devutil', 'config.json');
}

/** The saved connection, or undefined when there is no file; a file that is not ours is a usage error. */
export function readSavedConnection(env: Env = process.env): Partial<SavedConnection> | undefined {
  const path = configPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read ${path}: ${(err as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    return {
      url: typeof parsed.url === 'string' ? parsed.url : undefined,
      key: typeof parsed.key === 'string' ? parsed.key : undefined,
    };
  } catch {
    throw new UsageError(`${path} is not JSON: run devutil login again`);
  }
}

/** Write the config file readable by its owner only (0600, its folder 0700), whatever the umask. */
export function saveConnection(saved: SavedConnection, env: Env = process.env): string {
  const path = configPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600 });
  // A file that already existed keeps its old mode through writeFileSync.
  chmodSync(path, 0o600);
  return path;
}

/** Delete the config file; false when there was none. */
export function forgetConnection(env: Env = process.env): boolean {
  const path = configPath(env);
  try {
    rmSync(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/**
 * Normalise a service URL: http(s) only, no trailing slash.
 *
 * @example
 *   normaliseUrl('http://127.0.0.1:8080/') // 'http://127.0.0.1:8080'
 */
export function normaliseUrl(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new UsageError(`"${raw}" is not a URL (expected e.g. http://127.0.0.1:8080)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`"${raw}" is not an http or https URL`);
  return parsed.href.replace(/\/+$/, '');
}

/**
 * The connection of a client command: `--url` / `--key`, else DEVUTIL_URL / DEVUTIL_KEY, else the
 * config file. The file's key goes only to the file's URL, so `--url` elsewhere never leaks it.
 *
 * @example
 *   resolveConnection({ url: 'http://127.0.0.1:8080' }, { DEVUTIL_KEY: 'dk_…' }) // { url: 'http://127.0.0.1:8080', key: 'dk_…' }
 */
export function resolveConnection(flags: { url?: string; key?: string }, env: Env = process.env): Connection {
  const saved = readSavedConnection(env);
  const raw = flags.url ?? (env.DEVUTIL_URL || undefined) ?? saved?.url;
  if (!raw) throw new UsageError('no service URL: pass --url URL, set DEVUTIL_URL, or run devutil login --url URL');
  const url = normaliseUrl(raw);
  const sameUrl = saved?.url !== undefined && normaliseUrl(saved.url) === url;
  const key = flags.key ?? (env.DEVUTIL_KEY || undefined) ?? (sameUrl ? saved?.key : undefined);
  return key === undefined && saved?.key && !sameUrl ? { url, savedKeyUrl: saved.url } : { url, key };
}
