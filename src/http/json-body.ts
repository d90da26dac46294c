import type { FastifyInstance } from 'fastify';
import { DevutilError } from '../errors.js';
import { readBody } from './request-body.js';

/** JSON request bodies up to 2 MiB (CONTRACT §0). */
export const JSON_BODY_LIMIT = 2 * 1024 * 1024;
/** Deeper JSON is refused with 422 before it is parsed. */
export const MAX_JSON_DEPTH = 1000;

/**
 * Deepest nesting of arrays/objects in JSON text, scanning outside strings only. Stops early
 * once `limit` is passed, so hostile input costs one linear pass at most.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/**
 * Parse a JSON body. Empty text means "no body" (the route sees `{}` when it has a body schema).
 * Keys such as `__proto__` stay ordinary own properties: JSON.parse never touches prototypes.
 */
export function parseJsonBody(text: string): unknown {
  // Only text that starts with whitespace can be all whitespace: no trimmed copy of every body.
  if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return undefined;
  // Nesting deeper than the limit needs more opening brackets than that: shorter text needs no scan.
  if (text.length > MAX_JSON_DEPTH && jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new DevutilError('validation_error', `JSON nesting is deeper than ${MAX_JSON_DEPTH} levels.`, {
      errors: [{ path: 'body', message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` }],
    });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new DevutilError('invalid_json', `The request body is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Make JSON the only body type the service understands (anything else gets 415). The catch
 * path registers its own raw parser in its own scope.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  for (const type of ['application/json', /^application\/[\w.+-]+\+json$/]) {
    app.addContentTypeParser(type, (request, payload, done) =>
      readBody(request.headers, payload, JSON_BODY_LIMIT, (err, body) => {
        if (err) return done(err, undefined);
        let parsed: unknown;
        try {
          // An empty body reads as `{}`, as a request without one does (src/app.ts).
          parsed = parseJsonBody(body!.toString('utf8')) ?? {};
        } catch (parseErr) {
          return done(parseErr as Error, undefined);
        }
        done(null, parsed);
      }),
    );
  }
}
