import type { BinRecord, BinStore, CapturedRequestRecord, CapturedRequestSummary } from '../types.js';
import { run, type Db } from './database.js';

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
  content_type: string;
  content_length: number;
  source_ip: string;
  timestamp: number;
}

interface PendingCapture {
  req: CapturedRequestRecord;
  maxRequests: number;
  now: number;
  resolve(count: number | null): void;
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

export function createSqliteBinStore(db: Db): BinStore {
  const insertBin = db.prepare(
    `INSERT INTO bins (id, owner_key_id, name, created_at, expires_at, request_count)
     VALUES (@id, @ownerKeyId, @name, @createdAt, @expiresAt, @requestCount)`,
  );
  const getBin = db.prepare<[string, number], BinRow>('SELECT * FROM bins WHERE id = ? AND expires_at > ?');
  const listBins = db.prepare<[string, number, number, number], BinRow>(
    'SELECT * FROM bins WHERE owner_key_id = ? AND expires_at > ? ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?',
  );
  const countBins = db.prepare<[string, number], { n: number }>('SELECT COUNT(*) AS n FROM bins WHERE owner_key_id = ? AND expires_at > ?');
  const deleteRequests = db.prepare('DELETE FROM captured_requests WHERE bin_id = ?');
  const deleteBin = db.prepare('DELETE FROM bins WHERE id = ?');
  const bump = db.prepare<[string, number], { request_count: number }>(
    'UPDATE bins SET request_count = request_count + 1 WHERE id = ? AND expires_at > ? RETURNING request_count',
  );
  const insertRequest = db.prepare(
    `INSERT INTO captured_requests
       (id, bin_id, bin_seq, method, path, query_string, headers, body, content_type, content_length, source_ip, timestamp)
     VALUES (@id, @binId, @binSeq, @method, @path, @queryString, @headers, @body, @contentType, @contentLength, @sourceIp, @timestamp)`,
  );
  // Retention: rows whose bin_seq is more than maxRequests behind the bin's count (a range of the index).
  const evict = db.prepare('DELETE FROM captured_requests WHERE bin_id = ? AND bin_seq <= ?');
  const listRequests = db.prepare<[string, number, number], RequestRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM captured_requests WHERE bin_id = ? ORDER BY bin_seq DESC LIMIT ? OFFSET ?`,
  );
  const countRequests = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM captured_requests WHERE bin_id = ?');
  const getRequest = db.prepare<[string, string], RequestRow>('SELECT * FROM captured_requests WHERE id = ? AND bin_id = ?');

  // Group commit: captures arriving in the same event-loop turn share one transaction (and one
  // eviction per bin). Each promise still resolves only after the commit that holds its row.
  let pending: PendingCapture[] = [];
  const captureBatch = db.transaction((batch: PendingCapture[]): (number | null)[] => {
    // Per bin, the oldest bin_seq to keep after this batch (its newest count minus the cap).
    const keepFrom = new Map<string, number>();
    const counts = batch.map(({ req, maxRequests, now }) => {
      const bumped = bump.get(req.binId, now);
      if (!bumped) return null;
      const binSeq = bumped.request_count;
      insertRequest.run({ ...req, binSeq, headers: JSON.stringify(req.headers), contentLength: req.body.length });
      if (binSeq > maxRequests) keepFrom.set(req.binId, binSeq - maxRequests + 1);
      return binSeq;
    });
    for (const [binId, from] of keepFrom) evict.run(binId, from - 1);
    return counts;
  });
  const flushCaptures = () => {
    const batch = pending;
    pending = [];
    run(() => captureBatch(batch)).then(
      (counts) => batch.forEach((p, i) => p.resolve(counts[i])),
      (err: unknown) => batch.forEach((p) => p.reject(err)),
    );
  };
  const remove = db.transaction((id: string) => {
    deleteRequests.run(id);
    return deleteBin.run(id).changes === 1;
  });

  return {
    createBin: (bin) => run(() => void insertBin.run(bin)),
    getBin: (id, now) =>
      run(() => {
        const row = getBin.get(id, now);
        return row ? toBin(row) : null;
      }),
    listBins: (owner, page, now) =>
      run(() => ({
        total: countBins.get(owner, now)!.n,
        items: listBins.all(owner, now, page.limit, page.offset).map(toBin),
      })),
    deleteBin: (id) => run(() => remove(id)),
    captureRequest: (req, { maxRequests, now }) =>
      new Promise((resolve, reject) => {
        if (pending.length === 0) setImmediate(flushCaptures);
        pending.push({ req, maxRequests, now, resolve, reject });
      }),
    listRequests: (binId, page) =>
      run(() => ({
        total: countRequests.get(binId)!.n,
        items: listRequests.all(binId, page.limit, page.offset).map(toSummary),
      })),
    getRequest: (binId, requestId) =>
      run(() => {
        const row = getRequest.get(requestId, binId);
        if (!row) return null;
        const { contentLength: _ignored, ...summary } = toSummary(row);
        return { ...summary, headers: JSON.parse(row.headers!) as Record<string, string>, body: row.body! };
      }),
    clearRequests: (binId) => run(() => deleteRequests.run(binId).changes),
  };
}
