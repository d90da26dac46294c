/**
 * The store interfaces. Every method returns a promise, so SQLite (embedded default) and Redis
 * (scale-out) implement the same contract; callers never know which one they have. All times are epoch
 * milliseconds. Methods that depend on expiry take `now` so tests can freeze time; an expired bin
 * or mock is reported exactly as a missing one. A store that cannot reach its backend throws
 * `DevutilError('storage_unavailable')` and never pretends a write happened.
 */

/** The pub/sub channel on which a store announces the id of every key it revokes or rotates. */
export const KEY_CHANGES_CHANNEL = 'keys:changed';

export interface ApiKeyRecord {
  id: string;
  /** SHA-256 hex digest of the secret; the secret itself is never stored. */
  digest: string;
  /** First characters of the secret, for people to recognise a key in a list (`dk_AbCd…`). */
  hint: string;
  name: string;
  plan: string;
  /** When set, the key authenticates only through X-Marketplace-Key with this X-Marketplace-Host. */
  marketplaceHost: string | null;
  createdAt: number;
  revokedAt: number | null;
}

/**
 * Keys. `revokeKey` and `rotateKey` that change a key publish its id on {@link KEY_CHANGES_CHANNEL}
 * of the store's pubsub, so every instance can drop what it remembers of the key.
 */
export interface KeyStore {
  createKey(record: ApiKeyRecord): Promise<void>;
  findKeyByDigest(digest: string): Promise<ApiKeyRecord | null>;
  getKey(id: string): Promise<ApiKeyRecord | null>;
  /** All keys, oldest first. */
  listKeys(): Promise<ApiKeyRecord[]>;
  countKeys(): Promise<number>;
  /** Marks the key revoked; false when unknown or already revoked. */
  revokeKey(id: string, now: number): Promise<boolean>;
  /** Replaces the secret of an active key (the old digest stops working); false when unknown/revoked. */
  rotateKey(id: string, digest: string, hint: string): Promise<boolean>;
}

export interface UsageStore {
  /**
   * Atomically adds `cost` to the key's usage for `period` unless that would exceed `limit`
   * (`null` = no limit). Two concurrent calls with one credit left: exactly one gets `ok: true`.
   */
  reserveCredits(keyId: string, period: string, cost: number, limit: number | null): Promise<{ ok: boolean; used: number }>;
  /** Gives back credits reserved for a call that did not succeed; returns the new usage. */
  refundCredits(keyId: string, period: string, cost: number): Promise<number>;
  creditsUsed(keyId: string, period: string): Promise<number>;
  /** Counts one hit for `subject` in the fixed window `windowId` (lasting `windowMs`); returns the count. */
  hitRateLimit(subject: string, windowId: number, windowMs: number): Promise<number>;
}

export interface Page {
  limit: number;
  offset: number;
}

export interface PageOf<T> {
  total: number;
  items: T[];
}

export interface BinRecord {
  id: string;
  ownerKeyId: string;
  name: string | null;
  createdAt: number;
  expiresAt: number;
  /** Every request captured since creation (evicted ones included). */
  requestCount: number;
}

export interface CapturedRequestRecord {
  id: string;
  binId: string;
  method: string;
  /** Full request path, sub-path included, without the query string. */
  path: string;
  queryString: string;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body's exact bytes. */
  body: Buffer;
  /** `""` when absent. */
  contentType: string;
  sourceIp: string;
  timestamp: number;
}

/** A list item: everything but headers and body bytes. */
export type CapturedRequestSummary = Omit<CapturedRequestRecord, 'headers' | 'body'> & { contentLength: number };

/** A message for live streams that a capture publishes on the store's pubsub once it is stored. */
export interface Announcement {
  channel: string;
  /** Built only when someone may hear it (see `PubSub.hasSubscribers`), for the id the store gave the request. */
  message: (requestId: string) => string;
}

/** A request to capture: the store names it. */
export type NewCapture = Omit<CapturedRequestRecord, 'id'>;

/** What a capture became: its request id and the bin's new `requestCount`. */
export interface Captured {
  id: string;
  count: number;
}

export interface CaptureOptions {
  maxRequests: number;
  now: number;
  /**
   * Published with the capture, before the promise resolves: subscribers on every instance get the
   * announcements of one bin's captures in the order the captures were stored (Redis publishes from
   * the capture's own script; a store whose pubsub is in-process publishes as each commit lands).
   */
  announce?: Announcement;
}

export interface BinStore {
  createBin(bin: BinRecord): Promise<void>;
  getBin(id: string, now: number): Promise<BinRecord | null>;
  /** The owner's live bins, newest first. */
  listBins(ownerKeyId: string, page: Page, now: number): Promise<PageOf<BinRecord>>;
  /** Removes the bin and all its requests; false when it did not exist (or had expired). */
  deleteBin(id: string): Promise<boolean>;
  /**
   * Atomically stores one request in a live bin, increments its `requestCount` and evicts the
   * oldest requests beyond `maxRequests`. Resolves only once the write is durable. Returns the
   * request's id (`newSequencedId`: `req_`, the new `requestCount` and 131 random bits) and the new
   * `requestCount`, or null when the bin does not exist or has expired (nothing stored, nothing
   * announced). A bin takes at most `MAX_ID_SEQUENCE` captures; past that, `storage_unavailable`.
   */
  captureRequest(request: NewCapture, options: CaptureOptions): Promise<Captured | null>;
  /** Retained requests of a bin, newest first (capture order breaks timestamp ties). */
  listRequests(binId: string, page: Page): Promise<PageOf<CapturedRequestSummary>>;
  /**
   * Up to `limit` of the bin's retained requests captured after request `afterId`, oldest first:
   * what a live stream resuming after `afterId` sends before the live captures. When `afterId` was
   * the bin's but is no longer retained, every retained request came after it (retention and
   * clearing remove the oldest). Null when `afterId` is not one of the bin's ids, or the bin does
   * not exist. A request id carries its number in its bin, so an id whose request is gone is still
   * placed in capture order, by that number alone (its random part can no longer be checked).
   */
  listRequestsAfter(binId: string, afterId: string, limit: number): Promise<CapturedRequestSummary[] | null>;
  getRequest(binId: string, requestId: string): Promise<CapturedRequestRecord | null>;
  /** Deletes every retained request of the bin (its `requestCount` stays); returns how many. */
  clearRequests(binId: string): Promise<number>;
}

export interface MockRecord {
  id: string;
  ownerKeyId: string;
  name: string | null;
  statusCode: number;
  contentType: string;
  /** Custom response headers as configured (validated names and values). */
  headers: Record<string, string>;
  /** The configured `body` string, or null when none was given. */
  body: string | null;
  /** JSON text of the configured `response_body`, or null when none was given. */
  responseBodyJson: string | null;
  /** Restricts serving to this method (upper case), or null for any. */
  method: string | null;
  /** Sub-path the mock answers at (starts with `/`), or null for its base path and every sub-path. */
  path: string | null;
  delayMs: number;
  createdAt: number;
  expiresAt: number;
  hitCount: number;
}

/** Fields of a mock that PATCH may change. */
export type MockPatch = Partial<Omit<MockRecord, 'id' | 'ownerKeyId' | 'createdAt' | 'hitCount'>>;

export interface MockStore {
  createMock(mock: MockRecord): Promise<void>;
  /** A live mock (a copy: changing it changes nothing stored). */
  getMock(id: string, now: number): Promise<MockRecord | null>;
  /** The owner's live mocks, newest first. */
  listMocks(ownerKeyId: string, page: Page, now: number): Promise<PageOf<MockRecord>>;
  /** Applies the patch to a live mock; returns the updated record or null when missing/expired. */
  updateMock(id: string, patch: MockPatch, now: number): Promise<MockRecord | null>;
  deleteMock(id: string): Promise<boolean>;
  /** Atomically counts one served request; returns the new hit count or null when missing/expired. */
  recordMockHit(id: string, now: number): Promise<number | null>;
}

/** Publish/subscribe between service instances (in-process for SQLite, Redis pub/sub for Redis). */
export interface PubSub {
  publish(channel: string, message: string): Promise<void>;
  /** Messages published after the returned promise resolves reach `onMessage`, in publish order. */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  /**
   * Whether anyone could receive a message on `channel`, when the implementation knows for certain
   * (in-process delivery); absent when subscribers may live in other processes. Lets a publisher
   * skip building a message nobody reads.
   */
  hasSubscribers?(channel: string): boolean;
}

export interface Store {
  readonly kind: 'sqlite' | 'redis';
  readonly keys: KeyStore;
  readonly usage: UsageStore;
  readonly bins: BinStore;
  readonly mocks: MockStore;
  readonly pubsub: PubSub;
  /** Deletes expired bins (with their requests) and mocks; returns how many of each. */
  purgeExpired(now: number): Promise<{ bins: number; mocks: number }>;
  /** Throws `storage_unavailable` when the backend cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
