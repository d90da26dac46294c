import type { FastifyRequest } from 'fastify';

/**
 * The absolute URL of `path` on this service: under `publicBaseUrl` (PUBLIC_BASE_URL) when set,
 * else with the scheme and host the caller used. A request without a Host header (HTTP/1.0 may
 * omit it) gets the address and port it reached, so the URL is never `http:///…`.
 *
 * @example
 *   absoluteUrl(null, request, '/v1/catch/bin_x') // 'http://api.test:8080/v1/catch/bin_x'
 */
export function absoluteUrl(publicBaseUrl: string | null, request: FastifyRequest, path: string): string {
  return `${publicBaseUrl ?? `${request.protocol}://${request.host || reachedAddress(request)}`}${path}`;
}

function reachedAddress(request: FastifyRequest): string {
  const { localAddress, localPort } = request.socket;
  if (!localAddress) return 'localhost';
  const host = localAddress.includes(':') ? `[${localAddress}]` : localAddress;
  return localPort ? `${host}:${localPort}` : host;
}
