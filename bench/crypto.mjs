// Crypto benchmark (issue 5): throughput of hash (sha256), hmac, jwt-generate / jwt-verify (HS256 and
// ES256, when those routes exist) and totp-verify, against GET /healthz of the same service, in one run.
// Targets: sha256 hash and HS256 jwt-verify keep >= 60% of /healthz.
// Run: npm run build && (cd bench && npm install && node crypto.mjs)   [BENCH_SECONDS=8 by default]
import { generateKeyPairSync } from 'node:crypto';
import { measure, ratio, startService, writeResults } from './lib.mjs';

const duration = Number(process.env.BENCH_SECONDS ?? 8);
const service = await startService();
const headers = { 'x-api-key': service.apiKey };
const post = async (path, body) => {
  const res = await fetch(`${service.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
};

try {
  const cases = [
    { title: 'GET /healthz', path: '/healthz', method: 'GET' },
    { title: 'hash sha256 (64 B)', path: '/v1/auth/hash', body: { data: 'x'.repeat(64), algorithm: 'sha256' } },
    { title: 'hmac sha256 (64 B)', path: '/v1/auth/hmac', body: { data: 'x'.repeat(64), key: 'bench-secret', algorithm: 'sha256' } },
    { title: 'totp-verify SHA1', path: '/v1/auth/totp-verify', body: { secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', code: '94287082', digits: 8, timestamp: 59 } },
  ];

  // JWT routes belong to another part of the area: include them only when they answer.
  const payload = { sub: 'user-42', role: 'admin' };
  const hsSecret = 'bench-secret-bench-secret-bench-secret!';
  const hs = await post('/v1/auth/jwt-generate', { payload, algorithm: 'HS256', secret: hsSecret });
  if (hs.status === 200) {
    cases.push({ title: 'jwt-generate HS256', path: '/v1/auth/jwt-generate', body: { payload, algorithm: 'HS256', secret: hsSecret } });
    cases.push({ title: 'jwt-verify HS256', path: '/v1/auth/jwt-verify', body: { token: hs.body.token, secret: hsSecret }, expect: (b) => b.valid === true });
  }
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' });
  const publicPem = publicKey.export({ type: 'spki', format: 'pem' });
  const es = await post('/v1/auth/jwt-generate', { payload, algorithm: 'ES256', private_key: privatePem });
  if (es.status === 200) {
    cases.push({ title: 'jwt-generate ES256', path: '/v1/auth/jwt-generate', body: { payload, algorithm: 'ES256', private_key: privatePem } });
    cases.push({ title: 'jwt-verify ES256', path: '/v1/auth/jwt-verify', body: { token: es.body.token, public_key: publicPem }, expect: (b) => b.valid === true });
  }

  // Check each request once before loading it, so a benchmark of error answers cannot pass unnoticed.
  for (const c of cases.filter((x) => x.body)) {
    const res = await post(c.path, c.body);
    if (res.status !== 200 || (c.expect && !c.expect(res.body))) throw new Error(`${c.title}: ${res.status} ${JSON.stringify(res.body)}`);
  }

  const rows = [];
  for (const c of cases) {
    const r = await measure({ url: `${service.url}${c.path}`, method: c.method ?? 'POST', headers: c.path === '/healthz' ? {} : headers, body: c.body, duration, title: c.title });
    rows.push(r);
  }
  // /healthz again at the end: other load on the machine drifts, so the baseline is the mean of both runs.
  const closing = await measure({ url: `${service.url}/healthz`, duration, title: 'GET /healthz (again, last)' });
  rows.push(closing);
  const healthz = (rows[0].rps + closing.rps) / 2;
  for (const r of rows) r.pct_of_healthz = ratio(r.rps, healthz);
  const pctOf = (title) => rows.find((r) => r.title === title)?.pct_of_healthz;
  const verdict = (title) => {
    const pct = pctOf(title);
    return pct === undefined ? `${title}: route not available in this build` : `${title} at ${pct}% of /healthz (target >= 60%): ${pct >= 60 ? 'met' : 'NOT met'}`;
  };
  writeResults('crypto', {
    note: 'One service process (LOG_LEVEL=warn, SQLite store, unlimited-plan key), 50 connections, autocannon in this process; POST bodies are small JSON.',
    rows,
    verdicts: [`baseline: mean /healthz of the first and last run = ${Math.round(healthz)} rps`, verdict('hash sha256 (64 B)'), verdict('jwt-verify HS256')],
  });
} finally {
  await service.stop();
}
