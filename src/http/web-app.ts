import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';

/** CONTRACT §8: the policy on every response of the web app. */
export const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
  "font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

const APP_HEADERS = {
  'content-security-policy': APP_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** The client routes of CONTRACT §8: each answers the app's HTML, so a deep link survives a reload. */
export const CLIENT_ROUTES = ['/', '/bins', '/bins/*', '/mocks', '/mocks/*', '/tools', '/tools/*', '/account'];

/** Asset names carry a hash of their content, so a cached copy never goes stale. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

/** Precompressed siblings written by scripts/build-web.mjs; served in place of their original, never by name. */
const COMPRESSED = /\.(gz|br)$/;

/**
 * Where `npm run build` writes the web app: `dist/web` of the package, whether this module runs from
 * the sources (tsx) or from `dist/src` (tsc), which has no package.json of its own.
 *
 * @example
 *   defaultWebRoot() // '/srv/devutil/dist/web'
 */
export function defaultWebRoot(): string {
  const twoUp = fileURLToPath(new URL('../../', import.meta.url));
  return existsSync(join(twoUp, 'package.json')) ? join(twoUp, 'dist', 'web') : join(twoUp, 'web');
}

export interface WebAppOptions {
  /** The directory holding the built `index.html` and `assets/`. */
  root: string;
}

/**
 * Serve the built browser app (CONTRACT §8): hashed assets under `/assets/`, cached for a year, and
 * the HTML at `/` and every client route, revalidated on each load; `.br`/`.gz` siblings are chosen
 * by `Accept-Encoding`. Any other path stays the API's JSON 404. Without a build the service still
 * starts, with a warning and no UI.
 *
 * @example
 *   await app.register(webApp, { root: defaultWebRoot() });
 *   await app.inject({ url: '/bins/bin_x' }); // 200 text/html, Cache-Control: no-cache
 */
export default async function webApp(app: FastifyInstance, { root }: WebAppOptions): Promise<void> {
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn({ root }, 'the web app is not built (npm run build writes it): serving no UI');
    return;
  }
  // Only the build's own files are assets: any other name is an unknown route. The HTML is read from
  // disk on each load, so a build written while the service runs is listed again (at most once a
  // second) when its HTML names an asset not listed yet.
  const assetsDir = join(root, 'assets');
  // A directory being rewritten may vanish for a moment: the last listing stands until the next one.
  const listAssets = (previous = new Set<string>()) => {
    try {
      return new Set(existsSync(assetsDir) ? readdirSync(assetsDir).filter((name) => !COMPRESSED.test(name)) : []);
    } catch {
      return previous;
    }
  };
  let assets = listAssets();
  let listedAt = Date.now();
  const isAsset = (name: string) => {
    if (!assets.has(name) && Date.now() - listedAt >= 1000) {
      assets = listAssets(assets);
      listedAt = Date.now();
    }
    return assets.has(name);
  };

  await app.register(fastifyStatic, { root, serve: false, preCompressed: true, cacheControl: false });
  const route: RouteShorthandOptions = { config: { area: 'public' }, schema: { hide: true } };

  app.get<{ Params: { name: string } }>('/assets/:name', route, async (request, reply) => {
    if (!isAsset(request.params.name)) return reply.callNotFound();
    return reply.headers(APP_HEADERS).header('cache-control', ASSET_CACHE).sendFile(`assets/${request.params.name}`);
  });
  const sendIndex = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.headers(APP_HEADERS).header('cache-control', 'no-cache').sendFile('index.html');
  for (const url of CLIENT_ROUTES) app.get(url, route, sendIndex);
}
