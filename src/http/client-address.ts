import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** `1.2.3.4:5678` or `[2001:db8::1]:443`: an address with a port, as some proxies write a hop. */
const WITH_PORT = /^(?:\[([^\]]+)\]|(\d{1,3}(?:\.\d{1,3}){3})):\d{1,5}$/;

/**
 * The client's IP address: Fastify's `request.ip` (the first X-Forwarded-For hop when TRUST_PROXY
 * trusts the proxy) when it is an IP address, without a port some proxies append; anything else a
 * forwarded header claims (`unknown`, a name, garbage) falls back to the socket's peer address.
 *
 * @example
 *   clientAddress(request) // '203.0.113.9'
 */
export function clientAddress(request: Pick<FastifyRequest, 'ip' | 'socket'>): string {
  const claimed = request.ip;
  if (typeof claimed === 'string') {
    if (isIP(claimed) !== 0) return claimed;
    const m = WITH_PORT.exec(claimed);
    const address = m?.[1] ?? m?.[2];
    if (address !== undefined && isIP(address) !== 0) return address;
  }
  return request.socket.remoteAddress ?? '';
}
