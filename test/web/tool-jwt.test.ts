import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { assertAccessible, describedBy, eventually } from '../helpers/tool-pages.js';

const SECRET = 'a-long-shared-secret-of-32-bytes!';
const OPENAPI = JSON.parse(readFileSync('dist/openapi.json', 'utf8')) as {
  paths: Record<
    string,
    { post: { requestBody: { content: { 'application/json': { schema: { properties: Record<string, { enum?: string[] }> } } } } } }
  >;
};

interface Decoded {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signature: string;
}

describe('JWT page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  const answer = <T = Record<string, unknown>>(path: string, body: unknown) => web.api<T>('POST', path, body);
  const result = (page: Page) => page.getByRole('region', { name: 'Result' });
  /** The decoded header and payload the page shows, parsed back. */
  const shownJson = async (page: Page, part: 'Header' | 'Payload') =>
    JSON.parse((await result(page).getByRole('region', { name: part }).locator('pre').textContent()) ?? 'null') as unknown;

  it('decode: the pasted token is coloured by part, decoded as the API decodes it, and its times are said in words', async () => {
    const now = Math.floor(Date.now() / 1000);
    const payload = { sub: 'user_7', name: 'Ada', iat: now - 3600, exp: now - 180 };
    const { token } = await answer<{ token: string }>('/v1/auth/jwt-generate', { payload, secret: SECRET });
    const decoded = await answer<Decoded>('/v1/auth/jwt-decode', { token });
    const opened = await web.openSignedIn('/tools/jwt');
    const { page } = opened;
    await page.getByRole('heading', { level: 1, name: 'JWT' }).waitFor();
    assert.equal(await page.getByRole('tab', { name: 'Decode' }).getAttribute('aria-selected'), 'true');

    const box = page.getByLabel('Token', { exact: true });
    // Pasted with the line breaks a terminal adds: they are dropped.
    await box.fill(`${token.slice(0, 40)}\n${token.slice(40)}\n`);
    assert.equal(await box.inputValue(), token);
    const [header, body, signature] = token.split('.');
    const mirror = page.locator('.jwt-token-mirror');
    assert.equal(await mirror.locator('.jwt-header').textContent(), header);
    assert.equal(await mirror.locator('.jwt-payload').textContent(), body);
    assert.equal(await mirror.locator('.jwt-signature').textContent(), signature);
    assert.equal(await mirror.locator('.jwt-dot').count(), 2);
    assert.equal(await mirror.getAttribute('aria-hidden'), 'true');

    await eventually(() => shownJson(page, 'Payload'), decoded.payload, 'decoded payload');
    assert.deepEqual(await shownJson(page, 'Header'), decoded.header);
    assert.equal(await result(page).getByRole('region', { name: 'Signature' }).locator('code').textContent(), decoded.signature);
    const times = result(page).locator('.jwt-time');
    assert.deepEqual(await times.locator('dt').allInnerTexts(), ['Issued at iat', 'Expires exp']);
    assert.deepEqual(await times.locator('.jwt-time-status').allInnerTexts(), ['issued 1 hour ago', 'expired 3 minutes ago']);
    assert.deepEqual(await times.locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime'))), [
      new Date(payload.iat * 1000).toISOString(),
      new Date(payload.exp * 1000).toISOString(),
    ]);
    await assertAccessible(opened, 'decode');

    // A token still in force says how long it lasts.
    const fresh = await answer<{ token: string }>('/v1/auth/jwt-generate', {
      payload: { sub: 'user_7' },
      secret: SECRET,
      expires_in: 7200,
    });
    await box.fill(fresh.token);
    const expires = times.filter({ hasText: 'Expires' }).locator('.jwt-time-status');
    await eventually(() => expires.innerText(), 'valid for 2 hours', 'fresh token');
    opened.assertNoProblems();
    await opened.close();
  });

  it("a malformed token shows the API's detail next to the Token field", async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/jwt');
    const box = page.getByLabel('Token', { exact: true });
    await box.fill('abc.def');
    const refusal = await fetch(`${web.url}/v1/auth/jwt-decode`, {
      method: 'POST',
      headers: { 'x-api-key': web.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'abc.def' }),
    });
    assert.equal(refusal.status, 422);
    const { detail } = (await refusal.json()) as { detail: string };
    await eventually(() => box.getAttribute('aria-invalid'), 'true', 'token invalid');
    assert.equal((await describedBy(page, box))[0], detail);
    assert.equal(await page.getByRole('alert').count(), 0);
    await result(page).getByText('No decoded token: see the error.').waitFor();
    assert.deepEqual(apiErrors, ['POST /v1/auth/jwt-decode 422']);
    assertNoProblems();
    await close();
  });

  it('verify as the page opens: its example token and secret verify', async () => {
    const { page, assertNoProblems, close } = await web.openSignedIn('/tools/jwt');
    await page.getByRole('tab', { name: 'Verify' }).click();
    await eventually(() => result(page).locator('.jwt-verdict p').first().innerText(), 'Signature verified', 'the example verifies');
    assertNoProblems();
    await close();
  });

  it('verify with no key given says so next to the key field the form shows', async () => {
    const { page, close } = await web.openSignedIn('/tools/jwt');
    await page.getByRole('tab', { name: 'Verify' }).click();
    await page.getByRole('radio', { name: 'Public key: PEM or JWK (RS, PS, ES, EdDSA)' }).check();
    const publicKey = page.getByLabel('Public key', { exact: true });
    await eventually(
      async () => (await describedBy(page, publicKey))[0],
      'Paste the public key (PEM or JWK) to verify the token with.',
      'public key',
    );
    await page.getByRole('radio', { name: 'Secret (HS256, HS384, HS512)' }).check();
    const secret = page.getByLabel('Secret', { exact: true });
    await secret.fill('');
    await eventually(async () => (await describedBy(page, secret))[0], 'Enter the secret the token was signed with.', 'secret');
    await close();
  });

  it("verify with a secret: valid, then invalid with the API's reason and error", async () => {
    const { token } = await answer<{ token: string }>('/v1/auth/jwt-generate', {
      payload: { sub: 'user_9' },
      secret: SECRET,
      expires_in: 600,
    });
    const opened = await web.openSignedIn('/tools/jwt');
    const { page } = opened;
    await page.getByRole('tab', { name: 'Verify' }).click();
    const verdict = () => result(page).locator('.jwt-verdict p').allInnerTexts();
    await page.getByLabel('Token', { exact: true }).fill(token);
    await page.getByLabel('Secret', { exact: true }).fill(SECRET);
    // The example allows HS256 only.
    assert.equal(await page.getByRole('checkbox', { name: 'HS256' }).isChecked(), true);
    const good = await answer<{ valid: boolean; payload: unknown }>('/v1/auth/jwt-verify', {
      token,
      secret: SECRET,
      algorithms: ['HS256'],
    });
    assert.equal(good.valid, true);
    await eventually(
      verdict,
      ['Signature verified', 'The signature matches this key, and the times and the claims you asked for check out.'],
      'valid',
    );
    assert.deepEqual(await shownJson(page, 'Payload'), good.payload);

    await page.getByLabel('Secret', { exact: true }).fill('not the secret');
    const bad = await answer<{ valid: boolean; reason: string; error: string }>('/v1/auth/jwt-verify', {
      token,
      secret: 'not the secret',
      algorithms: ['HS256'],
    });
    assert.equal(bad.reason, 'invalid_signature');
    await eventually(verdict, ['Invalid token: The signature does not match (invalid_signature).', bad.error], 'invalid');

    // Only RS256 allowed: the HS256 token is refused for its algorithm.
    await page.getByLabel('Secret', { exact: true }).fill(SECRET);
    await page.getByRole('checkbox', { name: 'HS256' }).uncheck();
    await page.getByRole('checkbox', { name: 'RS256' }).check();
    const pinned = await answer<{ reason: string; error: string }>('/v1/auth/jwt-verify', { token, secret: SECRET, algorithms: ['RS256'] });
    assert.equal(pinned.reason, 'algorithm_not_allowed');
    await eventually(verdict, ['Invalid token: The algorithm is not allowed (algorithm_not_allowed).', pinned.error], 'pinned');
    await assertAccessible(opened, 'verify');
    opened.assertNoProblems();
    await opened.close();
  });

  it('verify with a public key pasted as a JWK: valid, and invalid with a JWK of another pair', async () => {
    const pair = await answer<{ public_key: Record<string, unknown>; private_key: Record<string, unknown> }>('/v1/auth/generate-keypair', {
      type: 'ec',
      curve: 'P-256',
      format: 'jwk',
    });
    const other = await answer<{ public_key: Record<string, unknown> }>('/v1/auth/generate-keypair', {
      type: 'ec',
      curve: 'P-256',
      format: 'jwk',
    });
    const { token } = await answer<{ token: string }>('/v1/auth/jwt-generate', {
      payload: { sub: 'user_jwk' },
      algorithm: 'ES256',
      private_key: pair.private_key,
    });
    const opened = await web.openSignedIn('/tools/jwt');
    const { page } = opened;
    await page.getByRole('tab', { name: 'Verify' }).click();
    const verdict = () => result(page).locator('.jwt-verdict p').allInnerTexts();
    await page.getByLabel('Token', { exact: true }).fill(token);
    await page.getByRole('radio', { name: /^Public key/ }).check();
    await page.getByRole('checkbox', { name: 'HS256' }).uncheck();
    await page.getByRole('checkbox', { name: 'ES256' }).check();
    const publicKey = page.getByLabel('Public key', { exact: true });
    await publicKey.fill(JSON.stringify(pair.public_key, null, 2));
    const good = await answer<{ valid: boolean; payload: unknown }>('/v1/auth/jwt-verify', {
      token,
      public_key: pair.public_key,
      algorithms: ['ES256'],
    });
    assert.equal(good.valid, true);
    await eventually(
      verdict,
      ['Signature verified', 'The signature matches this key, and the times and the claims you asked for check out.'],
      'valid with the JWK',
    );
    assert.deepEqual(await shownJson(page, 'Payload'), good.payload);

    await publicKey.fill(JSON.stringify(other.public_key));
    const bad = await answer<{ reason: string; error: string }>('/v1/auth/jwt-verify', {
      token,
      public_key: other.public_key,
      algorithms: ['ES256'],
    });
    assert.equal(bad.reason, 'invalid_signature');
    await eventually(verdict, ['Invalid token: The signature does not match (invalid_signature).', bad.error], 'another JWK');
    opened.assertNoProblems();
    await opened.close();
  });

  it('generate offers every algorithm of the schema; RS256 and ES256 key pairs made on the page sign and verify at once', async () => {
    const opened = await web.openSignedIn('/tools/jwt');
    const { page } = opened;
    await page.getByRole('tab', { name: 'Generate' }).click();
    const algorithm = page.getByLabel('Algorithm', { exact: true });
    const schema = OPENAPI.paths['/v1/auth/jwt-generate'].post.requestBody.content['application/json'].schema;
    await algorithm.getByRole('option').first().waitFor({ state: 'attached' });
    assert.deepEqual(await algorithm.getByRole('option').allInnerTexts(), schema.properties.algorithm.enum);
    // The example signs with HS256 and a secret.
    await eventually(async () => ((await shownJson(page, 'Header')) as { alg: string }).alg, 'HS256', 'example token');

    for (const [alg, pem] of [
      ['RS256', 'RSA'],
      ['ES256', 'EC'],
    ] as const) {
      await page.getByRole('tab', { name: 'Generate' }).click();
      await algorithm.selectOption(alg);
      assert.equal(await page.getByLabel('Secret', { exact: true }).count(), 0);
      // The note stays from the previous round: wait for the new key itself.
      const previousKey = await page.getByLabel('Private key').inputValue();
      await page.getByRole('button', { name: 'Generate key pair' }).click();
      await eventually(async () => (await page.getByLabel('Private key').inputValue()) !== previousKey, true, `${alg} key pair`);
      await page.getByText('New key pair: its private key is above, its public key is in Verify.').waitFor();
      const privateKey = await page.getByLabel('Private key').inputValue();
      assert.match(privateKey, /^-----BEGIN PRIVATE KEY-----\n/);
      await eventually(async () => ((await shownJson(page, 'Header')) as { alg: string }).alg, alg, `${alg} token`);
      const signed = result(page).getByRole('region', { name: 'Signed token' });
      const token = (await signed.locator('.jwt-token-view').textContent())!;
      assert.equal(await signed.locator('.jwt-signature').textContent(), token.split('.')[2]);
      assert.deepEqual(await shownJson(page, 'Header'), (await answer<Decoded>('/v1/auth/jwt-decode', { token })).header);

      await page.getByRole('button', { name: 'Verify this token' }).click();
      assert.equal(await page.getByRole('tab', { name: 'Verify' }).getAttribute('aria-selected'), 'true');
      await eventually(() => page.getByLabel('Token', { exact: true }).inputValue(), token, `${alg} token carried`);
      const publicKey = await page.getByLabel('Public key', { exact: true }).inputValue();
      assert.match(publicKey, /^-----BEGIN PUBLIC KEY-----\n/);
      assert.equal(await page.getByRole('radio', { name: /^Public key/ }).isChecked(), true);
      assert.equal(await page.getByRole('checkbox', { name: alg }).isChecked(), true);
      const expected = await answer<{ valid: boolean; payload: unknown }>('/v1/auth/jwt-verify', {
        token,
        public_key: publicKey,
        algorithms: [alg],
      });
      assert.equal(expected.valid, true, pem);
      await eventually(() => shownJson(page, 'Payload'), expected.payload, `${alg} verified payload`);
      await result(page).getByText('Signature verified').waitFor();
    }
    await assertAccessible(opened, 'generate and verify');
    opened.assertNoProblems();
    await opened.close();
  });

  it('a key pair from the Key pair tab signs with EdDSA and verifies', async () => {
    const opened = await web.openSignedIn('/tools/jwt');
    const { page } = opened;
    await page.getByRole('tab', { name: 'Key pair' }).click();
    await page.getByLabel('Type').selectOption('ed25519');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByRole('button', { name: 'Sign with this key' }).click();
    assert.equal(await page.getByRole('tab', { name: 'Generate' }).getAttribute('aria-selected'), 'true');
    await eventually(() => page.getByLabel('Algorithm', { exact: true }).inputValue(), 'EdDSA', 'algorithm');
    await eventually(async () => ((await shownJson(page, 'Header')) as { alg: string }).alg, 'EdDSA', 'EdDSA token');
    await page.getByRole('button', { name: 'Verify this token' }).click();
    await result(page).getByText('Signature verified').waitFor();
    const token = await page.getByLabel('Token', { exact: true }).inputValue();
    const publicKey = await page.getByLabel('Public key', { exact: true }).inputValue();
    assert.equal((await answer<{ valid: boolean }>('/v1/auth/jwt-verify', { token, public_key: publicKey })).valid, true);
    await assertAccessible(opened, 'key pair');
    opened.assertNoProblems();
    await opened.close();
  });
});
