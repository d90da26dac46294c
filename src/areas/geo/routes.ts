import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { clientAddress } from '../../http/client-address.js';
import { lookupGeoIp, type GeoResult } from './ip-lookup.js';

const DESCRIPTION = [
  'Country, region, city and coordinates of an IP address (IPv4 or IPv6), from the DB-IP City Lite database shipped with the service (no network access).',
  "Without `ip`, or with an empty one (`?ip=`, as an empty form field sends it), the caller's own address is looked up (behind a proxy only when `TRUST_PROXY` is set).",
  'IPv4-mapped IPv6 (`::ffff:1.2.3.4`), IPv4-translated, IPv4-compatible, NAT64 (`64:ff9b::1.2.3.4`) and 6to4 (`2002:0102:0304::`) addresses are looked up as the IPv4 address they carry.',
  'Private and reserved ranges (loopback, RFC 1918, CGNAT, link-local, multicast, documentation, unique local fc00::/7, fe80::/10, ...) answer `reserved: true` with every other field null;',
  'a public address the database does not know answers `reserved: false` with nulls. `country` is the English name of `country_code`; coordinates are rounded to 4 decimals and approximate (city level).',
  '',
  'Data: [IP Geolocation by DB-IP](https://db-ip.com), IP to City Lite, licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/).',
].join('\n');

const nullableString = { type: ['string', 'null'] } as const;
const nullableNumber = { type: ['number', 'null'] } as const;

function toWire(result: GeoResult) {
  return {
    ip: result.ip,
    country_code: result.countryCode,
    country: result.country,
    region: result.region,
    city: result.city,
    latitude: result.latitude,
    longitude: result.longitude,
    reserved: result.reserved,
  };
}

/** The geo area (CONTRACT §6): `GET /v1/geo/ip-lookup` → `lookupGeoIp` (ip-lookup.ts). */
export default async function geoRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  void ctx;
  app.get<{ Querystring: { ip?: string } }>(
    '/v1/geo/ip-lookup',
    {
      config: { area: 'geo' },
      schema: {
        tags: ['geo'],
        operationId: 'lookupGeoIp',
        summary: "Geolocate an IP address (default: the caller's)",
        description: DESCRIPTION,
        querystring: {
          type: 'object',
          properties: {
            ip: {
              type: 'string',
              maxLength: 64,
              description: "IPv4 or IPv6 address (spaces around it, as pasted, are ignored); omit or leave empty for the caller's address.",
              examples: ['8.8.8.8'],
            },
          },
          additionalProperties: false,
          examples: [{ ip: '8.8.8.8' }],
        },
        response: {
          200: {
            type: 'object',
            required: ['ip', 'country_code', 'country', 'region', 'city', 'latitude', 'longitude', 'reserved'],
            properties: {
              ip: { type: 'string' },
              country_code: { ...nullableString, description: 'ISO 3166-1 alpha-2.' },
              country: nullableString,
              region: { ...nullableString, description: 'State, province or similar first-level subdivision.' },
              city: nullableString,
              latitude: nullableNumber,
              longitude: nullableNumber,
              reserved: { type: 'boolean', description: 'true for private and special-purpose ranges (then every other field is null).' },
            },
            examples: [
              {
                ip: '8.8.8.8',
                country_code: 'US',
                country: 'United States',
                region: 'California',
                city: 'Mountain View',
                latitude: 37.422,
                longitude: -122.085,
                reserved: false,
              },
            ],
          },
        },
      },
    },
    async (request) => {
      // `||`, not `??`: an empty `ip` (`?ip=`) means the caller's address, as an absent one does.
      return toWire(await lookupGeoIp(request.query.ip?.trim() || clientAddress(request)));
    },
  );
}
