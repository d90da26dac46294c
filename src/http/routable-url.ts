import type { IncomingMessage } from 'node:http';

/** The paths that take any sub-path, read as sent from `request.originalUrl`: catch and mock serving. */
const AS_SENT_PREFIXES = ['/v1/catch/', '/v1/mock/'];

/**
 * Fastify's `rewriteUrl`: the URL the router matches. RFC 3986 allows any octet percent-encoded in
 * a path, but the router decodes paths as UTF-8 and answers 400 to any other (`%ff`, `50%`); on the
 * catch and mock paths such a path has its `%` escaped, so that it reaches its route, which reads
 * the path as sent. Every other URL is routed as it is.
 *
 * @example
 *   Fastify({ rewriteUrl: routableUrl }); // GET /v1/mock/mock_x/%ff reaches /v1/mock/:mock_id/*
 */
export function routableUrl(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (!url.includes('%') || !AS_SENT_PREFIXES.some((prefix) => url.startsWith(prefix))) return url;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  try {
    decodeURIComponent(path);
    return url;
  } catch {
    return path.replaceAll('%', '%25') + url.slice(path.length);
  }
}
