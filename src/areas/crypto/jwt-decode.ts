import { invalidField } from '../../errors.js';
import { jsonDepth, MAX_JSON_DEPTH } from '../../lib/json-depth.js';

/** A token that cannot be read as a JWT; the message says which part failed. */
export class JwtMalformedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JwtMalformedError';
  }
}

export interface DecodedJwt {
  header: Record<string, unknown>;
  /** The claims set, or undefined when the payload is not a JSON object (a JWS that is not a JWT). */
  payload: Record<string, unknown> | undefined;
  /** Why `payload` is undefined. */
  payloadProblem?: string;
  /** The third segment, base64url as in the token. */
  signature: string;
}

const SEGMENT = /^[A-Za-z0-9_-]*$/;
/** Three base64url segments: one test of the whole token instead of one per segment. */
const COMPACT = /^[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/;

/** Why `segment` is not base64url, or null. Length 1 mod 4 cannot come from any byte string; padding and other alphabets are not base64url. */
function segmentProblem(segment: string, name: string): string | null {
  return SEGMENT.test(segment) && segment.length % 4 !== 1 ? null : `the ${name} is not base64url`;
}

/** The UTF-8 text of a base64url segment (already checked). */
function segmentText(segment: string): string {
  return Buffer.from(segment, 'base64url').toString('utf8');
}

function parseObject(text: string, name: string): Record<string, unknown> {
  // Deeper JSON could not be answered (serialising it would run out of stack), as in a request body.
  if (text.length > MAX_JSON_DEPTH && jsonDepth(text) > MAX_JSON_DEPTH)
    throw new JwtMalformedError(`the ${name} nests deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JwtMalformedError(`the ${name} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new JwtMalformedError(`the ${name} is JSON but not an object`);
  return value as Record<string, unknown>;
}

/**
 * Headers already read, by their base64url segment: the tokens a service sees share a handful of
 * headers (`{"alg":"HS256","typ":"JWT"}`), so most are decoded and parsed once. Only flat headers
 * (no object or array values) are kept, frozen, since every token with that segment gets the same
 * object; the map starts over when full.
 */
const HEADERS_READ = new Map<string, Record<string, unknown>>();
const HEADERS_KEPT = 64;
const HEADER_SEGMENT_KEPT = 256;

function readHeader(segment: string): Record<string, unknown> {
  const known = HEADERS_READ.get(segment);
  if (known) return known;
  const header = parseObject(segmentText(segment), 'header');
  if (segment.length <= HEADER_SEGMENT_KEPT && Object.values(header).every((v) => v === null || typeof v !== 'object')) {
    if (HEADERS_READ.size >= HEADERS_KEPT) HEADERS_READ.clear();
    HEADERS_READ.set(segment, Object.freeze(header));
  }
  return header;
}

/**
 * Split a compact JWS and read its header and claims without checking anything else. The
 * header must be a JSON object; a payload that is not one is reported in `payloadProblem`.
 *
 * @example
 *   readJwt('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig').payload // { sub: '1' }
 */
export function readJwt(token: string): DecodedJwt {
  const first = token.indexOf('.');
  const second = first === -1 ? -1 : token.indexOf('.', first + 1);
  if (second === -1 || token.includes('.', second + 1)) {
    throw new JwtMalformedError(
      `must be a JWT of 3 dot-separated parts (header.payload.signature); this one has ${token.split('.').length}`,
    );
  }
  const headerPart = token.slice(0, first);
  const payloadPart = token.slice(first + 1, second);
  const signature = token.slice(second + 1);
  const wellFormed = COMPACT.test(token) && headerPart.length % 4 !== 1 && payloadPart.length % 4 !== 1 && signature.length % 4 !== 1;
  // The header's problem first, then the header's JSON, then the signature's and the payload's problems.
  const headerProblem = wellFormed ? null : segmentProblem(headerPart, 'header');
  if (headerProblem) throw new JwtMalformedError(headerProblem);
  const header = readHeader(headerPart);
  const otherProblem = wellFormed ? null : (segmentProblem(signature, 'signature') ?? segmentProblem(payloadPart, 'payload'));
  if (otherProblem) throw new JwtMalformedError(otherProblem);
  const payloadText = segmentText(payloadPart);
  try {
    return { header, payload: parseObject(payloadText, 'payload'), signature };
  } catch (err) {
    return { header, payload: undefined, payloadProblem: (err as Error).message, signature };
  }
}

/**
 * `POST /v1/auth/jwt-decode`: header, claims and signature, nothing checked. Anything that is not
 * a JWT (including a payload that is not a JSON object) is a 422 on `token` saying which part failed.
 *
 * @example
 *   decodeJwt(token) // { header: { alg: 'HS256' }, payload: { sub: '1' }, signature: '...' }
 */
export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown>; signature: string } {
  let read: DecodedJwt;
  try {
    read = readJwt(token);
  } catch (err) {
    if (err instanceof JwtMalformedError) throw invalidField('token', err.message);
    throw err;
  }
  if (!read.payload) throw invalidField('token', read.payloadProblem ?? 'the payload is not a JSON object');
  return { header: read.header, payload: read.payload, signature: read.signature };
}
