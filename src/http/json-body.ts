import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { DevutilError } from '../errors.js';
import { jsonDepth, MAX_JSON_DEPTH } from '../lib/json-depth.js';

/** JSON request bodies up to 2 MiB (CONTRACT §0). */
export const JSON_BODY_LIMIT = 2 * 1024 * 1024;

// JSON.parse reads a number literal beyond ±1.8e308 as ±Infinity, which JSON cannot carry back
// (it would go out as `null`). Such a literal has an exponent of three digits or more, or (JSON has
// no leading zeros, and a two-digit exponent adds at most 99) at least 210 integer digits in a row:
// text with neither needs no walk for them.
const LONG_EXPONENT = /\d[eE]\+?\d{3}/;
const LONG_RUN = 210;
// Anchored at the start of a run of digits, so each run is scanned once rather than from every digit in it.
const LONG_DIGITS = new RegExp(`(?<![0-9])[0-9]{${LONG_RUN}}`);

/** Where the first non-finite number in `value` is (`arrays[0][2]`, `number`), or null. */
function nonFiniteAt(value: unknown, path: string): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path || 'body';
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = nonFiniteAt(value[i], `${path}[${i}]`);
      if (at !== null) return at;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    // As validation errors write paths (`fields[0].type`); a key that is not a plain name is quoted in brackets.
    const step = /^[A-Za-z_$][\w$-]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
    const at = nonFiniteAt((value as Record<string, unknown>)[key], step);
    if (at !== null) return at;
  }
  return null;
}

/** 422 for a number too large for a double: it would otherwise be changed, silently, into infinity or `null`. */
function refuseNonFinite(text: string, value: unknown): void {
  // Most bodies are shorter than such a run of digits: no second scan for them.
  if (!LONG_EXPONENT.test(text) && (text.length < LONG_RUN || !LONG_DIGITS.test(text))) return;
  const at = nonFiniteAt(value, '');
  if (at === null) return;
  throw new DevutilError('validation_error', `${at} is a number too large to represent (beyond ±1.7976931348623157e308).`, {
    errors: [{ path: at, message: 'must be a finite number (at most ±1.7976931348623157e308)' }],
  });
}

/**
 * A JSON body's text from its bytes: JSON exchanged between systems is UTF-8 (RFC 8259 §8.1), and
 * a body that is not is refused (400 `invalid_json`) rather than read with U+FFFD in place of its
 * bad bytes.
 */
function jsonBodyText(raw: Buffer): string {
  if (!isUtf8(raw)) throw new DevutilError('invalid_json', 'The request body is not valid JSON: it is not valid UTF-8 (RFC 8259 §8.1).');
  return raw.toString('utf8');
}

/**
 * Parse a JSON body. Empty text means "no body" (the route sees `{}` when it has a body schema).
 * Keys such as `__proto__` stay ordinary own properties: JSON.parse never touches prototypes.
 * A number beyond what a double holds is a 422, not infinity.
 */
function parseJsonBody(text: string): unknown {
  // Only text that starts with whitespace can be all whitespace: no trimmed copy of every body.
  if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) return undefined;
  // Nesting deeper than the limit needs more opening brackets than that: shorter text needs no scan.
  if (text.length > MAX_JSON_DEPTH && jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new DevutilError('validation_error', `JSON nesting is deeper than ${MAX_JSON_DEPTH} levels.`, {
      errors: [{ path: 'body', message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` }],
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new DevutilError('invalid_json', `The request body is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  refuseNonFinite(text, value);
  return value;
}

/** The `{}` objects standing for bodies sent empty under a JSON content type (see {@link emptyJsonBody}). */
const emptyBodies = new WeakSet<object>();

/**
 * What a body sent empty as `application/json` reads as: `{}`, so an endpoint whose fields are all
 * optional (create a bin, a mock) takes it as "all defaults", as clients that always send the
 * header expect. When that `{}` fails the schema, the request was not valid JSON after all: see
 * {@link emptyBodyFailure}.
 */
function emptyJsonBody(): object {
  const body = {};
  emptyBodies.add(body);
  return body;
}

/**
 * The 400 `invalid_json` (CONTRACT §0: "body is not valid JSON"; an empty text is not) for a body
 * sent empty whose `{}` failed schema validation, or null when the body was not empty. The 422
 * would list missing fields of a body the client never wrote.
 */
export function emptyBodyFailure(body: unknown, failure: DevutilError): DevutilError | null {
  if (body === null || typeof body !== 'object' || !emptyBodies.has(body)) return null;
  const missing = failure.errors?.map((e) => e.path).join(', ');
  return new DevutilError(
    'invalid_json',
    `The request body is empty but declared as JSON; send a JSON object${missing ? ` (with ${missing})` : ''}.`,
    { cause: failure },
  );
}

/**
 * The 415 for a JSON body sent with a content coding (`Content-Encoding: gzip`): the service reads
 * bodies as sent and would otherwise take compressed bytes for bad JSON, or ignore a header that
 * says the body is something else (RFC 9110 §8.4.1: an unsupported coding is a 415). `identity`
 * is no coding. Null when there is none.
 */
function contentCodingRefusal(headers: IncomingHttpHeaders): DevutilError | null {
  const coding = headers['content-encoding']?.trim().toLowerCase();
  if (coding === undefined || coding === '' || coding === 'identity') return null;
  return new DevutilError('unsupported_media_type', `Content-Encoding "${coding}" is not supported: send the JSON body uncompressed.`);
}

/**
 * Make JSON the only body type the service understands (anything else gets 415), read up to the
 * route's body limit (2 MiB unless it sets its own). The catch and mock paths register their own raw
 * parsers in their own scopes.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  for (const type of ['application/json', /^application\/[\w.+-]+\+json$/]) {
    app.addContentTypeParser(type, { parseAs: 'buffer' }, (request, body, done) => {
      const refusal = contentCodingRefusal(request.headers);
      if (refusal) return done(refusal, undefined);
      let parsed: unknown;
      try {
        // An empty body reads as `{}`, as a request without one does (src/app.ts), marked as empty.
        // JSON `null` stays null: a body that is not an object is a 422 like `[]` or `"x"`.
        const value = parseJsonBody(jsonBodyText(body as Buffer));
        parsed = value === undefined ? emptyJsonBody() : value;
      } catch (err) {
        return done(err as Error, undefined);
      }
      done(null, parsed);
    });
  }
}
