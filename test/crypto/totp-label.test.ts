import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { findPyotpPython, pyotpMissing, runClient } from '../helpers/clients.js';

/** What pyotp reads from an otpauth URI, and the codes it computes at two instants. */
const PYOTP_READ = `
import json, sys, pyotp
t = pyotp.parse_uri(sys.argv[1])
print(json.dumps({"secret": t.secret, "issuer": t.issuer, "name": t.name, "digits": t.digits, "interval": t.interval,
                  "digest": t.digest().name, "at_59": t.at(59), "at_now": t.at(int(sys.argv[2]))}))
`;

describe('TOTP otpauth label: issuer and account', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const generate = (query: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/v1/auth/totp-generate?${new URLSearchParams(query)}`, headers: t.auth });

  it('a colon in issuer or account is a 422 naming the field (Key Uri Format), encoded or not', async () => {
    const message = 'must not contain ":" (the otpauth label separates issuer and account with it)';
    for (const [query, paths] of [
      [{ issuer: 'ACME:Prod', account: 'ana' }, ['issuer']],
      [{ issuer: 'ACME', account: 'ana:admin' }, ['account']],
      [{ issuer: 'a:b', account: 'c:d' }, ['issuer', 'account']],
    ] as const) {
      const res = await generate(query);
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(res.json(), {
        detail: `${paths.join(' and ')} ${message}.`,
        code: 'validation_error',
        errors: paths.map((path) => ({ path, message })),
      });
    }
    // Percent-encoded in the query, it is still a colon.
    const encoded = await t.app.inject({ method: 'GET', url: '/v1/auth/totp-generate?issuer=ACME%3AProd', headers: t.auth });
    assert.equal(encoded.statusCode, 422);
    assert.deepEqual(encoded.json().errors, [{ path: 'issuer', message }]);
  });

  it('the description says so', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.match(
      doc.paths['/v1/auth/totp-generate'].get.description,
      /`issuer` and `account` must not contain ":" .* → 422 naming the field/,
    );
  });

  it(
    "pyotp parses a valid answer's otpauth_uri: same secret, issuer, account, parameters, and the codes totp-verify accepts",
    { skip: pyotpMissing() },
    async () => {
      const python = findPyotpPython()!;
      // pyotp 2.6 (Debian 12) unquotes the whole URI before parsing, so "&", "?", "#", "%" or "+" in a name
      // would confuse it; the names here avoid them (and keep a space, an "@" and non-ASCII letters).
      for (const [issuer, account, algorithm, digits, period] of [
        ['ACME Söhne', 'ana@example.com', 'SHA1', '6', '30'],
        ['Zürich Bank', 'jörg.müller@example.ch', 'SHA256', '8', '60'],
        ['devutil', 'user', 'SHA512', '6', '15'],
      ]) {
        const res = await generate({ issuer, account, algorithm, digits, period });
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        const now = Math.floor(Date.now() / 1000);
        const run = runClient(python, ['-c', PYOTP_READ, body.otpauth_uri, String(now)]);
        assert.equal(run.stderr, '');
        assert.equal(run.status, 0);
        const read = JSON.parse(run.stdout);
        assert.deepEqual(
          { secret: read.secret, issuer: read.issuer, name: read.name, digits: read.digits, interval: read.interval, digest: read.digest },
          { secret: body.secret, issuer, name: account, digits: Number(digits), interval: Number(period), digest: algorithm.toLowerCase() },
        );
        for (const [timestamp, code] of [
          [59, read.at_59],
          [now, read.at_now],
        ]) {
          const verified = await t.app.inject({
            method: 'POST',
            url: '/v1/auth/totp-verify',
            headers: t.auth,
            payload: { secret: body.secret, code, digits: Number(digits), period: Number(period), algorithm, window: 0, timestamp },
          });
          assert.deepEqual(verified.json(), { valid: true, delta: 0 });
        }
      }
    },
  );
});
