import { hash } from 'node:crypto';
import { newId, randomString } from '../lib/ids.js';
import { wellFormed } from '../lib/well-formed.js';
import type { ApiKeyRecord, KeyStore } from '../storage/types.js';

export const API_KEY_PATTERN = /^dk_[0-9A-Za-z]{32}$/;

/** `dk_` + 32 base62 characters from a CSPRNG (190 bits). */
export function generateApiKey(): string {
  return 'dk_' + randomString(32);
}

/** SHA-256 hex digest of a secret: the only form in which keys are stored or looked up. */
export function digestSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/**
 * How a key is told apart in listings without storing any of it (CONTRACT §1: only a digest is
 * stored): the first 12 hex digits of its SHA-256 digest, which its holder can compute
 * (`printf %s "$KEY" | sha256sum | cut -c1-12`).
 *
 * @example
 *   hintOf(digestSecret('dk_…')) // 'sha256:3f8a09c2d1e7…'
 */
export function hintOf(digest: string): string {
  return `sha256:${digest.slice(0, 12)}…`;
}

/** A host name (labels of letters, digits and inner hyphens) with an optional port, as `X-Marketplace-Host` carries it. */
export const MARKETPLACE_HOST_PATTERN =
  '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::[0-9]{1,5})?$';

export interface NewKey {
  name?: string;
  plan: string;
  marketplaceHost?: string | null;
}

/**
 * Issue a key: the record stores only the digest; the secret is returned once.
 *
 * @example
 *   const { record, secret } = await issueKey(store.keys, { plan: 'free', name: 'ci' });
 */
export async function issueKey(keys: KeyStore, input: NewKey, now = Date.now()): Promise<{ record: ApiKeyRecord; secret: string }> {
  const secret = generateApiKey();
  const digest = digestSecret(secret);
  const record: ApiKeyRecord = {
    id: newId('key_'),
    digest,
    hint: hintOf(digest),
    // As bins and mocks: a lone surrogate is stored (and answered) as U+FFFD, as a UTF-8 store reads it back.
    name: wellFormed(input.name ?? ''),
    plan: input.plan,
    marketplaceHost: input.marketplaceHost ? input.marketplaceHost.toLowerCase() : null,
    createdAt: now,
    revokedAt: null,
  };
  await keys.createKey(record);
  return { record, secret };
}

/** Give a key a new secret; the old one stops working at once. Null when unknown or revoked. */
export async function rotateKey(keys: KeyStore, id: string): Promise<{ record: ApiKeyRecord; secret: string } | null> {
  const secret = generateApiKey();
  const digest = digestSecret(secret);
  if (!(await keys.rotateKey(id, digest, hintOf(digest)))) return null;
  return { record: (await keys.getKey(id))!, secret };
}

/**
 * The digest a presented secret is looked up by, or null when it is not in the key format.
 * `memo` remembers the last secret and its digest for one caller (a connection), so a client that
 * sends the same key on every request of a keep-alive connection has it hashed once.
 *
 * @example
 *   keyDigest('dk_0123456789abcdefghijABCDEFGHIJKL') // 'fe73e9e1…' (64 hex digits)
 *   keyDigest('not-a-key') // null
 */
export function keyDigest(secret: string, memo?: DigestMemo): string | null {
  if (memo !== undefined && memo.secret === secret) return memo.digest;
  if (!API_KEY_PATTERN.test(secret)) return null;
  const digest = digestSecret(secret);
  if (memo !== undefined) {
    memo.secret = secret;
    memo.digest = digest;
  }
  return digest;
}

/** The last secret one connection presented and its digest (see {@link keyDigest}). */
export interface DigestMemo {
  secret: string | null;
  digest: string;
}

/** Wire form of a key (never the secret). */
export function keyToWire(record: ApiKeyRecord) {
  return {
    key_id: record.id,
    name: record.name,
    plan: record.plan,
    // From the digest, whatever an older release stored (the first characters of the secret).
    hint: hintOf(record.digest),
    marketplace_host: record.marketplaceHost,
    created_at: new Date(record.createdAt).toISOString(),
    revoked_at: record.revokedAt === null ? null : new Date(record.revokedAt).toISOString(),
  };
}
