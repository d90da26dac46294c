import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DevutilError, invalidField } from '../../errors.js';
import { classifyAddress } from './ssrf-address.js';

/** The address a replay connects to, already checked. */
export interface CheckedTarget {
  url: URL;
  /** Host name without IPv6 brackets (used for TLS SNI and the Host header). */
  hostname: string;
  port: number;
  address: string;
  family: 4 | 6;
}

export interface GuardOptions {
  /** `REPLAY_ALLOW_PRIVATE`: every address is allowed. */
  allowPrivate: boolean;
  /** `REPLAY_ALLOW_HOSTS`: `host` or `host:port` entries exempt from the check. */
  allowHosts: readonly string[];
  /** Name resolution (node:dns lookup with `all: true` by default); tests may replace it. */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * Parse `target_url` as WHATWG URL does (so `127.1`, `2130706433`, `0x7f000001` all become
 * `127.0.0.1` and `[::ffff:127.0.0.1]` becomes `[::ffff:7f00:1]`); only absolute http/https.
 *
 * @example
 *   parseTargetUrl('http://0x7f000001:8080/hook').hostname // '127.0.0.1'
 */
export function parseTargetUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The parser's only complaint about an http(s) URL with a host is its port (`:99999`, `:x`).
    const port = /^https?:\/\/[^/?#]*:([^/?#@\]]*)(?:[/?#]|$)/i.exec(text.trim())?.[1];
    if ((port !== undefined && !/^\d{0,5}$/.test(port)) || (port !== undefined && Number(port) > 65535)) {
      throw invalidField('target_url', `has an invalid port (${JSON.stringify(port)}): a port is a number from 0 to 65535`);
    }
    throw invalidField('target_url', 'must be an absolute http:// or https:// URL');
  }
  if (!Object.hasOwn(DEFAULT_PORTS, url.protocol))
    throw invalidField('target_url', `must use http or https, not ${url.protocol.slice(0, -1)}`);
  // WHATWG URL repairs `http:/x` and `http:x` into `http://x/`: a target is taken only as written in full.
  if (!/^\s*https?:\/\//i.test(text))
    throw invalidField('target_url', 'must be an absolute http:// or https:// URL (scheme, then `//` and a host)');
  if (url.hostname === '') throw invalidField('target_url', 'must name a host');
  return url;
}

/** `host` or `host:port` as WHATWG URL writes it, so allow-list entries compare with targets. */
function normaliseEntry(entry: string): { host: string; port: number | null } | null {
  const text = isIP(entry) === 6 ? `[${entry}]` : entry;
  try {
    const u = new URL(`http://${text}`);
    // WHATWG drops an explicit :80, which still restricts the entry to port 80.
    return { host: u.hostname, port: u.port === '' ? (/:\d+$/.test(text) ? 80 : null) : Number(u.port) };
  } catch {
    return null;
  }
}

/** True when `REPLAY_ALLOW_HOSTS` names the URL's host (with any port, or with its port). */
export function isAllowListed(url: URL, allowHosts: readonly string[]): boolean {
  const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : Number(url.port);
  return allowHosts.some((entry) => {
    const e = normaliseEntry(entry);
    return e !== null && e.host === url.hostname && (e.port === null || e.port === port);
  });
}

async function resolveAll(hostname: string): Promise<{ address: string; family: number }[]> {
  return dnsLookup(hostname, { all: true, verbatim: true });
}

/**
 * Resolve the target's host and refuse it (422 `target_not_allowed`) when ANY resolved address
 * is not public unicast, unless the guard is lifted for it. The caller connects to the returned
 * address, the one that was checked, so a second resolution cannot swap it (no DNS rebinding).
 *
 * @example
 *   const target = await checkTarget(parseTargetUrl('https://example.com/hook'), { allowPrivate: false, allowHosts: [] });
 *   // target.address is a public IP of example.com
 */
export async function checkTarget(url: URL, options: GuardOptions): Promise<CheckedTarget> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : Number(url.port);
  const exempt = options.allowPrivate || isAllowListed(url, options.allowHosts);
  const literal = isIP(hostname);
  // RFC 6761: localhost names are loopback whatever a resolver says; no lookup needed to refuse them.
  if (!exempt && !literal && /(^|\.)localhost\.?$/i.test(hostname)) {
    throw new DevutilError('target_not_allowed', `${hostname} is a loopback name; replay targets must be public addresses.`);
  }
  let addresses: { address: string; family: number }[];
  if (literal) addresses = [{ address: hostname, family: literal }];
  else {
    try {
      addresses = await (options.resolve ?? resolveAll)(hostname);
    } catch (err) {
      throw new DevutilError(
        'upstream_error',
        `Could not resolve ${hostname}: ${(err as NodeJS.ErrnoException).code ?? 'lookup failed'}.`,
        { cause: err },
      );
    }
    if (addresses.length === 0) throw new DevutilError('upstream_error', `${hostname} has no address.`);
  }
  if (!exempt) {
    for (const { address } of addresses) {
      const kind = classifyAddress(address);
      if (kind !== 'public') {
        const what = literal ? `${address} is a ${kind ?? 'unknown'} address` : `${hostname} resolves to ${address} (${kind ?? 'unknown'})`;
        // The address and its kind are in the sentence: the error body stays {detail, code} (CONTRACT §0).
        throw new DevutilError('target_not_allowed', `${what}; replay targets must be public addresses.`);
      }
    }
  }
  const chosen = addresses[0];
  return { url, hostname, port, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
