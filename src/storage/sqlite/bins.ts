import { DevutilError } from '../../errors.js';
import { isIdOfScope, MAX_ID_SEQUENCE, newSequencedId, sequenceOfId } from '../../lib/ids.js';
import type { Announcement, BinRecord, BinStore, Captured, CapturedRequestSummary, NewCapture, PubSub } from '../types.js';
import { PURGE_CHUNK_ROWS, REQUEST_KEY_SPAN, run, type Db } from './database.js';

interface BinRow {
  id: string;
  owner_key_id: string;
  name: string | null;
  created_at: number;
  expires_at: number;
  request_count: number;
}

interface RequestRow {
  id: string;
  bin_id: string;
  method: string;
  path: string;
  query_string: string;
  headers?: string;
  body?: Buffer;
  bin_seq?: number;
  content_type: string;
  content_length: number;
  source_ip: string;
  timestamp: number;
}

/** The rowids of bin `?`'s requests whose bin_seq is past the bins column or number `after` (bind the bin id twice). */
const keysAfter = (after: string) =>
  `key BETWEEN (SELECT key * ${REQUEST_KEY_SPAN} + ${after} + 1 FROM bins WHERE id = ?) AND (SELECT key * ${REQUEST_KEY_SPAN} + ${REQUEST_KEY_SPAN - 1} FROM bins WHERE id = ?)`;
/** All of bin `?`'s requests. */
const BIN_RANGE = keysAfter('0');
/** Bin `?`'s retained requests, those after its `retained_after`. */
const RETAINED_RANGE = keysAfter('retained_after');

/** Up to `?3` captured requests of bin `?1` (bound twice; one chunk of a purge, so no transaction holds the event loop long). */
export const DELETE_BIN_REQUESTS_CHUNK = `DELETE FROM captured_requests WHERE key IN (SELECT key FROM captured_requests WHERE ${BIN_RANGE} LIMIT ?)`;

interface PendingCapture {
  req: NewCapture;
  maxRequests: number;
  now: number;
  announce: Announcement | undefined;
  resolve(captured: Captured | null): void;
  reject(err: unknown): void;
}

function toBin(row: BinRow): BinRecord {
  return {
    id: row.id,
    ownerKeyId: row.owner_key_id,
    name: row.name,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    requestCount: row.request_count,
  };
}

function toSummary(row: RequestRow): CapturedRequestSummary {
  return {
    id: row.id,
    binId: row.bin_id,
    method: row.method,
    path: row.path,
    queryString: row.query_string,
    contentType: row.content_type,
    contentLength: row.content_length,
    sourceIp: row.source_ip,
    timestamp: row.timestamp,
  };
}

const SUMMARY_COLUMNS = 'id, bin_id, method, path, query_string, content_type, content_length, source_ip, timestamp';

/**
 * Retention deletes a bin's oldest rows in runs of at least this many. A request past the bin's
 * `maxRequests` leaves it at once (`bins.retained_after` moves with the capture that pushes it out,
 * and every read stops at it); its row stays until the run is full. Deleting a row or two per
 * group commit rewrote the oldest leaf pages of the table and of the index on every commit; a run
 * of 256 frees whole pages (bench/README.md, "Design figures").
 * A bin keeps at most this many rows (and one group commit's) beyond its `maxRequests` on disk.
 */
export const EVICTION_RUN_ROWS = 256;

/**
 * Under load, a group commit waits for more captures while they keep coming: up to this many more
 * event-loop turns, as long as each turn brought more and the group is below
 * {@link GROUP_COMMIT_ROWS}. A commit costs nearly the same for 10 captures as for 50 (it writes
 * the pages it touched, whole), so its cost per capture falls with the group's size.
 */
export const GROUP_COMMIT_MAX_WAIT_TURNS = 3;
/** A group this large commits in the turn it reaches that size. */
export const GROUP_COMMIT_ROWS = 48;
/**
 * "Under load": the previous group held at least this many captures. Otherwise a group commits in
 * the turn its first capture arrived, as the answer then goes out before the connection is read
 * again: Node ends a connection when it reads the client's FIN, so a client that half-closes after
 * its request (`socket.end(request)`) gets an answer only if it is written in that turn.
 */
export const GROUP_COMMIT_BUSY = 8;

/**
 * The bin store. `pubsub` is the store's in-process pubsub: announcements are published there in
 * commit order (each batch in arrival order, which is bin_seq order), and only when someone listens.
 */
export function createSqliteBinStore(db: Db, pubsub: PubSub): BinStore {
  const insertBin = db.prepare(
    `INSERT INTO bins (id, owner_key_id, name, created_at, expires_at, request_count)
     VALUES (@id, @ownerKeyId, @name, @createdAt, @expiresAt, @requestCount)`,
  );
  // By id alone: a row found expired is purged (CONTRACT §2.1: "purged lazily on access and by a periodic sweep").
  const getBin = db.prepare<[string], BinRow>('SELECT * FROM bins WHERE id = ?');
  const expiryOf = db.prepare<[string], { expires_at: number }>('SELECT expires_at FROM bins WHERE id = ?');
  const listBins = db.prepare<[string, number, number, number], BinRow>(
    'SELECT * FROM bins WHERE owner_key_id = ? AND expires_at > ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?',
  );
  const countBins = db.prepare<[string, number], { n: number }>('SELECT COUNT(*) AS n FROM bins WHERE owner_key_id = ? AND expires_at > ?');
  const deleteRequests = db.prepare<[string, string]>(`DELETE FROM captured_requests WHERE ${BIN_RANGE}`);
  const deleteBin = db.prepare('DELETE FROM bins WHERE id = ?');
  // SET reads the row as it was: `request_count + n` is the new count.
  // A bin takes at most MAX_ID_SEQUENCE captures (its requests' bin_seq are the ids' sequence part
  // and the low 32 bits of their keys): about 48 hours at 25000 a second.
  const bump = db.prepare<
    [number, number, number, string, number, number],
    { key: number; request_count: number; retained_after: number; deleted_through: number }
  >(
    `UPDATE bins SET request_count = request_count + ?, retained_after = max(retained_after, request_count + ? - ?)
     WHERE id = ? AND expires_at > ? AND request_count + ? <= ${MAX_ID_SEQUENCE} RETURNING key, request_count, retained_after, deleted_through`,
  );
  // The rowid is computed by SQLite in 64 bits (a bin key past 2^21 would not fit a JavaScript number).
  const insertRequest = db.prepare<
    [number, number, string, string, number, string, string, string, string, Buffer, string, number, string, number]
  >(
    `INSERT INTO captured_requests
       (key, id, bin_id, bin_seq, method, path, query_string, headers, body, content_type, content_length, source_ip, timestamp)
     VALUES (? * ${REQUEST_KEY_SPAN} + ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Retention: the rows no longer retained, a range of the bin's keys, deleted in runs.
  const evict = db.prepare<[number, number, number, number]>(
    `DELETE FROM captured_requests WHERE key BETWEEN ? * ${REQUEST_KEY_SPAN} + ? AND ? * ${REQUEST_KEY_SPAN} + ?`,
  );
  const markDeleted = db.prepare<[number, string]>('UPDATE bins SET deleted_through = ? WHERE id = ?');
  const listRequests = db.prepare<[string, string, number, number], RequestRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM captured_requests WHERE ${RETAINED_RANGE} ORDER BY key DESC LIMIT ? OFFSET ?`,
  );
  // Every request after retained_after is stored (retention and clearing both move it).
  const countRequests = db.prepare<[string], { n: number }>('SELECT request_count - retained_after AS n FROM bins WHERE id = ?');
  // A request named by its bin_seq is one row of the bin's range; an id from before version 6 of
  // the schema is looked for in the bin's retained range.
  const getRequestBySeq = db.prepare<[number, string, string], RequestRow>(
    `SELECT c.* FROM bins b JOIN captured_requests c ON c.key = b.key * ${REQUEST_KEY_SPAN} + ? WHERE b.id = ? AND c.id = ? AND c.bin_seq > b.retained_after`,
  );
  const getRequestById = db.prepare<[string, string, string], RequestRow>(
    `SELECT * FROM captured_requests WHERE ${RETAINED_RANGE} AND id = ?`,
  );
  // Resume (listRequestsAfter): the bin's counters, the id stored under one number, a page from a number on.
  const positionOf = db.prepare<[string], { key: number; request_count: number; retained_after: number; deleted_through: number }>(
    'SELECT key, request_count, retained_after, deleted_through FROM bins WHERE id = ?',
  );
  const idAt = db.prepare<[number, number], { id: string }>(`SELECT id FROM captured_requests WHERE key = ? * ${REQUEST_KEY_SPAN} + ?`);
  const pageFrom = db.prepare<[number, number, number, number], RequestRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM captured_requests WHERE key BETWEEN ? * ${REQUEST_KEY_SPAN} + ? AND ? * ${REQUEST_KEY_SPAN} + ${REQUEST_KEY_SPAN - 1} ORDER BY key LIMIT ?`,
  );
  const clearAll = db.prepare<[string]>('UPDATE bins SET retained_after = request_count, deleted_through = request_count WHERE id = ?');

  const announce = ({ channel, message }: Announcement, id: string) => {
    if (pubsub.hasSubscribers?.(channel) === false) return;
    // In-process delivery fails only when a subscriber throws: no reason to fail a stored capture
    // (nor to leave the rest of its batch unanswered).
    try {
      pubsub.publish(channel, message(id)).catch(() => undefined);
    } catch {
      // as above
    }
  };

  // Group commit: captures arriving in the same event-loop turn (under load, also in the few turns
  // after it while they keep coming: GROUP_COMMIT_MAX_WAIT_TURNS) share one transaction (and one
  // eviction per bin). Each promise still resolves only after the commit that holds its row.
  let pending: PendingCapture[] = [];
  let waitedTurns = 0;
  let sizeLastTurn = 0;
  let lastGroupSize = 0;
  const captureBatch = db.transaction((batch: PendingCapture[]): (Captured | DevutilError | null)[] => {
    // One count bump per bin for the whole batch; its captures take the counts up to the new one in
    // arrival order (a bin gone or expired takes none).
    const perBin = new Map<string, PendingCapture[]>();
    for (const p of batch) {
      const list = perBin.get(p.req.binId);
      if (list) list.push(p);
      else perBin.set(p.req.binId, [p]);
    }
    const results = new Map<PendingCapture, Captured | DevutilError>();
    for (const [binId, captures] of perBin) {
      // The latest clock of the group: no capture lands in a bin that has expired by then.
      const now = captures[captures.length - 1]!.now;
      // The latest cap of the group applies to all of it.
      const maxRequests = captures[captures.length - 1]!.maxRequests;
      const bumped = bump.get(captures.length, captures.length, maxRequests, binId, now, captures.length);
      if (!bumped) {
        const expiry = expiryOf.get(binId)?.expires_at;
        if (expiry !== undefined && expiry <= now) purgeExpiredBin(binId, now);
        if (expiry !== undefined && expiry > now) {
          const full = new DevutilError(
            'storage_unavailable',
            `Bin ${binId} has taken the most captures one bin can hold (${MAX_ID_SEQUENCE}); create a new bin.`,
          );
          for (const p of captures) results.set(p, full);
        }
        continue;
      }
      let binSeq = bumped.request_count - captures.length;
      for (const p of captures) {
        const r = p.req;
        const id = newSequencedId('req_', ++binSeq, binId);
        insertRequest.run(
          bumped.key,
          binSeq,
          id,
          binId,
          binSeq,
          r.method,
          r.path,
          r.queryString,
          JSON.stringify(r.headers),
          r.body,
          r.contentType,
          r.body.length,
          r.sourceIp,
          r.timestamp,
        );
        results.set(p, { id, count: binSeq });
      }
      // Retention: the bump left the newest maxRequests retained; their elders' rows go once a run is full.
      if (bumped.retained_after - bumped.deleted_through >= EVICTION_RUN_ROWS) {
        evict.run(bumped.key, bumped.deleted_through + 1, bumped.key, bumped.retained_after);
        markDeleted.run(bumped.retained_after, binId);
      }
    }
    return batch.map((p) => results.get(p) ?? null);
  });
  const flushCaptures = () => {
    const wait = lastGroupSize >= GROUP_COMMIT_BUSY && pending.length > sizeLastTurn && pending.length < GROUP_COMMIT_ROWS;
    if (wait && waitedTurns < GROUP_COMMIT_MAX_WAIT_TURNS && db.open) {
      waitedTurns++;
      sizeLastTurn = pending.length;
      setImmediate(flushCaptures);
      return;
    }
    waitedTurns = 0;
    sizeLastTurn = 0;
    const batch = pending;
    pending = [];
    lastGroupSize = batch.length;
    run(() => captureBatch(batch)).then(
      (results) =>
        batch.forEach((p, i) => {
          const result = results[i]!;
          if (result instanceof DevutilError) return p.reject(result);
          if (p.announce && result !== null) announce(p.announce, result.id);
          p.resolve(result);
        }),
      (err: unknown) => batch.forEach((p) => p.reject(err)),
    );
  };
  const remove = db.transaction((id: string) => {
    deleteRequests.run(id, id);
    return deleteBin.run(id).changes === 1;
  });
  // Answers how many were retained; the rows retention had not yet deleted go too.
  const clear = db.transaction((binId: string) => {
    const retained = countRequests.get(binId)?.n ?? 0;
    deleteRequests.run(binId, binId);
    clearAll.run(binId);
    return retained;
  });

  // Lazy purge: a bin found expired when it is read or caught for loses its requests in chunks of
  // PURGE_CHUNK_ROWS, one transaction each with the event loop free between them (a bin may hold
  // 100000), then its row. Readers already treat it as missing; the periodic sweep covers the rest.
  const deleteSomeRequests = db.prepare(DELETE_BIN_REQUESTS_CHUNK);
  const purging = new Set<string>();
  const purgeStep = (id: string, now: number) => {
    if (!db.open) return void purging.delete(id);
    try {
      if (deleteSomeRequests.run(id, id, PURGE_CHUNK_ROWS).changes === PURGE_CHUNK_ROWS) return void setImmediate(purgeStep, id, now);
      const expiry = expiryOf.get(id)?.expires_at;
      if (expiry !== undefined && expiry <= now) deleteBin.run(id);
    } catch {
      // Left to the periodic sweep (a busy or closing database).
    }
    purging.delete(id);
  };
  const purgeExpiredBin = (id: string, now: number) => {
    if (purging.has(id)) return;
    purging.add(id);
    setImmediate(purgeStep, id, now);
  };

  return {
    createBin: (bin) => run(() => void insertBin.run(bin)),
    getBin: (id, now) =>
      run(() => {
        const row = getBin.get(id);
        if (row && row.expires_at <= now) purgeExpiredBin(id, now);
        return row && row.expires_at > now ? toBin(row) : null;
      }),
    listBins: (owner, page, now) =>
      run(() => ({
        total: countBins.get(owner, now)!.n,
        items: listBins.all(owner, now, page.limit, page.offset).map(toBin),
      })),
    deleteBin: (id) => run(() => remove(id)),
    captureRequest: (req, { maxRequests, now, announce }) =>
      new Promise((resolve, reject) => {
        if (pending.length === 0) setImmediate(flushCaptures);
        pending.push({ req, maxRequests, now, announce, resolve, reject });
      }),
    listRequests: (binId, page) =>
      run(() => ({
        total: countRequests.get(binId)?.n ?? 0,
        items: listRequests.all(binId, binId, page.limit, page.offset).map(toSummary),
      })),
    listRequestsAfter: (binId, afterId, limit) =>
      run(() => {
        const bin = positionOf.get(binId);
        if (!bin) return null;
        let after = sequenceOfId('req_', afterId);
        if (after === null) {
          // An id from before version 6 of the schema has no number: only a retained one is placed.
          after = getRequestById.get(binId, binId, afterId)?.bin_seq ?? null;
          if (after === null) return null;
        } else if (after < 1 || after > bin.request_count || !isIdOfScope('req_', afterId, binId)) return null;
        // A row not yet deleted (retained, or waiting for its eviction run) must hold this very id.
        else if (after > bin.deleted_through && idAt.get(bin.key, after)?.id !== afterId) return null;
        const from = Math.max(after, bin.retained_after) + 1;
        return pageFrom.all(bin.key, from, bin.key, limit).map(toSummary);
      }),
    getRequest: (binId, requestId) =>
      run(() => {
        const seq = sequenceOfId('req_', requestId);
        const row = seq !== null ? getRequestBySeq.get(seq, binId, requestId) : getRequestById.get(binId, binId, requestId);
        if (!row) return null;
        const { contentLength: _ignored, ...summary } = toSummary(row);
        return { ...summary, headers: JSON.parse(row.headers!) as Record<string, string>, body: row.body! };
      }),
    clearRequests: (binId) => run(() => clear(binId)),
  };
}
