import { isIP } from 'node:net';
import { invalidField } from '../../errors.js';
import { andThen, type MaybePromise } from '../../maybe-promise.js';
import { findGeoRow } from './geo-database.js';
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

const DISPLAY_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const countryNames = new Map<string, string | null>();
const MAPPED_IPV4 = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i;

/**
 * Locate an IP address in the bundled DB-IP City Lite database. Reserved and private ranges
 * answer `reserved: true` with every other field null; an address the database does not know
 * answers `reserved: false` and nulls. IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is looked up as IPv4.
 *
 * @example
 *   await lookupGeoIp('8.8.8.8'); // a plain value once the database is loaded
 *   // { ip: '8.8.8.8', countryCode: 'US', country: 'United States', region: 'California', city: 'Mountain View', latitude: 37.422, longitude: -122.085, reserved: false }
 */
export function lookupGeoIp(ip: string): MaybePromise<GeoResult> {
  if (ip === '') throw invalidField('ip', 'must not be empty');
  if (ip.includes('%') || !isIP(ip)) throw invalidField('ip', 'must be an IPv4 or IPv6 address');
  const address = unwrapMappedIpv4(ip);
  const family = isIP(address) as 4 | 6;
  const empty = { ip, countryCode: null, country: null, region: null, city: null, latitude: null, longitude: null };
  if (isReservedIp(address, family)) return { ...empty, reserved: true };
  return andThen(findGeoRow(address, family), (row) => {
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
  });
}

/** English name of an ISO 3166 code, remembered (there are about 250). */
function nameCountry(code: string): string | null {
  let name = countryNames.get(code);
  if (name === undefined) {
    name = DISPLAY_NAMES.of(code) ?? null;
    countryNames.set(code, name);
  }
  return name;
}

function unwrapMappedIpv4(ip: string): string {
  const m = MAPPED_IPV4.exec(ip);
  if (!m) return ip;
  if (m[1]) return m[1];
  const high = parseInt(m[2]!, 16);
  const low = parseInt(m[3]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** The database stores float32 coordinates; 4 decimals (about 11 m) drop the float noise. */
function roundCoordinate(value: number | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 10_000) / 10_000 : null;
}
