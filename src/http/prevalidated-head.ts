import { IncomingMessage, ServerResponse, validateHeaderName, validateHeaderValue } from 'node:http';
import { Socket } from 'node:net';

/**
 * node:http keeps the headers set with `setHeader` in a map under this (module-private) symbol,
 * `{ lower-case name: [name, value] }`, and `writeHead(status)` writes that map without checking
 * its names and values again (`setHeader` checked them). Found by its description on a throwaway
 * response; `null` on a Node whose responses have no such symbol, and callers then use `writeHead`
 * with a header list.
 */
const OUT_HEADERS: symbol | null =
  Object.getOwnPropertySymbols(new ServerResponse(new IncomingMessage(new Socket()))).find((s) => s.description === 'kOutHeaders') ?? null;

/** Whether this Node lets {@link writeHeadPrevalidated} skip the per-response checks (tests assert it, so the path they cover is the one that runs). */
export const canPrevalidateHeads = OUT_HEADERS !== null;

/**
 * A response head whose names and values were checked once, with node:http's own
 * `validateHeaderName`/`validateHeaderValue`, so that the requests answered with it skip the two
 * regular-expression tests per header that `writeHead(status, list)` runs on every response (3% of a
 * mock hit). Each answer adds one last header, its `X-Request-Id`, whose values are safe by
 * construction (see `requestIds` in src/app.ts).
 */
export interface PrevalidatedHead {
  /** `[name, value]` pairs, as node:http stores them; shared by every answer (node:http only reads them). */
  entries: ReadonlyArray<readonly [string, string]>;
}

/**
 * The checked head of `list` (alternating names and values, names lower-case and distinct), or
 * `null` when this Node has no header map to fill (see {@link OUT_HEADERS}) or a header would be
 * refused: `writeHead` with the list then gives the same answer, or the same error, as before.
 *
 * @example
 *   const head = prevalidatedHead(['content-type', 'text/plain', 'x-mock-id', 'mock_1']);
 *   if (head) writeHeadPrevalidated(res, 200, head, 'req-1'); else res.writeHead(200, [...list, 'x-request-id', 'req-1']);
 */
export function prevalidatedHead(list: readonly string[]): PrevalidatedHead | null {
  if (OUT_HEADERS === null) return null;
  const entries: Array<readonly [string, string]> = [];
  const seen = new Set<string>();
  for (let i = 0; i + 1 < list.length; i += 2) {
    const name = list[i]!;
    const value = list[i + 1]!;
    // The map is keyed by lower-case name: a name twice (or not lower-case) would lose a header, and
    // `__proto__` would set the map's prototype (node:http's own map has none; this one is a plain object, which V8 keeps fast).
    if (name !== name.toLowerCase() || seen.has(name) || name === 'x-request-id' || name === '__proto__') return null;
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      return null;
    }
    seen.add(name);
    entries.push([name, value]);
  }
  return { entries };
}

/** Header map → `res`'s headers, written by `writeHead(status)` unchecked; false (nothing done) when headers were already set or this Node has no map. */
function writeHeadMap(res: ServerResponse, status: number, map: Record<string, readonly [string, string]>): boolean {
  const target = res as unknown as Record<symbol, unknown>;
  if (OUT_HEADERS === null || (target[OUT_HEADERS] !== null && target[OUT_HEADERS] !== undefined)) return false;
  target[OUT_HEADERS] = map;
  res.writeHead(status);
  return true;
}

/**
 * `res.writeHead(status)` with `head` and `x-request-id: requestId` as the response's headers, in
 * that order, as `writeHead(status, list)` would send them. False (nothing done) when headers were
 * already set on `res`: the caller then uses `writeHead` with a list.
 */
export function writeHeadPrevalidated(res: ServerResponse, status: number, head: PrevalidatedHead, requestId: string): boolean {
  const map: Record<string, readonly [string, string]> = {};
  const { entries } = head;
  for (let i = 0; i < entries.length; i++) map[entries[i]![0]] = entries[i]!;
  map['x-request-id'] = ['x-request-id', requestId];
  return writeHeadMap(res, status, map);
}

/**
 * `res.writeHead(status, list)` for a head the service builds itself, from constants, digits and
 * request ids (a tool's or a capture's answer), without node:http checking each name and value
 * again (two regular-expression tests per header, about 0.1 µs each). `list` alternates names and
 * values, names lower-case and distinct. Falls back to `writeHead(status, list)` on a Node without
 * the header map or when headers were already set on `res`.
 *
 * @example
 *   writeHeadTrusted(res, 200, ['x-request-id', 'req-1', 'content-type', JSON_TYPE, 'content-length', '11']);
 */
export function writeHeadTrusted(res: ServerResponse, status: number, list: string[]): void {
  const map: Record<string, readonly [string, string]> = {};
  for (let i = 0; i + 1 < list.length; i += 2) map[list[i]!] = [list[i]!, list[i + 1]!];
  if (!writeHeadMap(res, status, map)) res.writeHead(status, list);
}
