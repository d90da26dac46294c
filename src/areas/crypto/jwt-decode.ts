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

function decodeSegment(segment: string, name: string): string {
  // Length 1 mod 4 cannot come from any byte string; padding and other alphabets are not base64url.
  if (!SEGMENT.test(segment) || segment.length % 4 === 1) throw new JwtMalformedError(`the ${name} is not base64url`);
  return Buffer.from(segment, 'base64url').toString('utf8');
}

function parseObject(text: string, name: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JwtMalformedError(`the ${name} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new JwtMalformedError(`the ${name} is JSON but not an object`);
  return value as Record<string, unknown>;
}

/**
 * Split a compact JWS and read its header and claims without checking anything else. The
 * header must be a JSON object; a payload that is not one is reported in `payloadProblem`.
 *
 * @example
 *   readJwt('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig').payload // { sub: '1' }
 */
export function readJwt(token: string): DecodedJwt {
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwtMalformedError(`a JWT has 3 dot-separated parts, this token has ${parts.length}`);
  const [headerPart, payloadPart, signature] = parts;
  const header = parseObject(decodeSegment(headerPart, 'header'), 'header');
  if (!SEGMENT.test(signature) || signature.length % 4 === 1) throw new JwtMalformedError('the signature is not base64url');
  const payloadText = decodeSegment(payloadPart, 'payload');
  try {
    return { header, payload: parseObject(payloadText, 'payload'), signature };
  } catch (err) {
    return { header, payload: undefined, payloadProblem: (err as Error).message, signature };
  }
}

/**
 * Decode a JWT for display: header, claims and signature; anything that is not a JWT (including
 * a payload that is not a JSON object) throws {@link JwtMalformedError}.
 *
 * @example
 *   decodeJwt(token) // { header: { alg: 'HS256' }, payload: { sub: '1' }, signature: '...' }
 */
export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown>; signature: string } {
  const read = readJwt(token);
  if (!read.payload) throw new JwtMalformedError(read.payloadProblem ?? 'the payload is not a JSON object');
  return { header: read.header, payload: read.payload, signature: read.signature };
}
