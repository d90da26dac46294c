// What one HMAC costs in this Node: node:crypto's createHmac (a native Hmac object and a result
// Buffer per call) against src/areas/crypto/hmac.ts (two one-shot crypto.hash calls over reused
// buffers), for the inputs the service MACs: a JWT's signing input (HS256/HS512), a webhook body
// (/v1/auth/hmac) and a TOTP counter. Both must give the same MAC. Nanoseconds per call.
// Run: npm run build && cd bench && node hmac.mjs
import { createHmac } from 'node:crypto';
import { hmacText } from '../dist/src/areas/crypto/hmac.js';
import { writeResults } from './lib.mjs';

const N = Number(process.env.BENCH_CALLS ?? 300_000);
const b64url = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwtInput = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: 'user-42', role: 'admin', iat: 1795300000 })}`;
const counter = Buffer.alloc(8);
counter.writeBigUInt64BE(59n);

const CASES = [
  { input: 'JWT signing input (HS256, 39-byte secret)', hash: 'sha256', key: Buffer.from('bench-secret-bench-secret-bench-secret!'), data: jwtInput, encoding: 'base64url' },
  { input: 'JWT signing input (HS512, 39-byte secret)', hash: 'sha512', key: Buffer.from('bench-secret-bench-secret-bench-secret!'), data: jwtInput, encoding: 'base64url' },
  { input: 'webhook body, 1 KB (SHA-256, 32-byte key)', hash: 'sha256', key: Buffer.alloc(32, 7), data: Buffer.alloc(1024, 'x'), encoding: 'hex' },
  { input: 'TOTP counter, 8 bytes (SHA-1, 20-byte secret)', hash: 'sha1', key: Buffer.from('12345678901234567890'), data: counter, encoding: 'hex' },
];

function nsPerCall(fn) {
  for (let i = 0; i < 50_000; i++) fn(); // warm-up: optimized code
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i++) fn();
  return Number(process.hrtime.bigint() - started) / N;
}

const rows = [];
for (const c of CASES) {
  const viaNode = () => createHmac(c.hash, c.key).update(c.data).digest(c.encoding);
  const viaHashes = () => hmacText(c.hash, c.key, c.data, c.encoding);
  if (viaNode() !== viaHashes()) throw new Error(`${c.input}: the two MACs differ`);
  const node = nsPerCall(viaNode);
  const oneShot = nsPerCall(viaHashes);
  rows.push({ input: c.input, createHmac_ns: Math.round(node), hmacText_ns: Math.round(oneShot), ratio: Number((oneShot / node).toFixed(2)) });
}
writeResults('hmac', {
  note: `${N} calls per form after 50000 of warm-up, one process; the same MAC checked first.`,
  pinned: false,
  rows,
});
