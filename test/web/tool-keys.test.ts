import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type AppPage, type WebApp } from '../helpers/browser.js';
import { describedBy, eventually } from '../helpers/tool-pages.js';

const OPENAPI = JSON.parse(readFileSync('dist/openapi.json', 'utf8')) as {
  paths: Record<string, { get: { parameters: { name: string; schema: { enum?: string[] } }[] } }>;
};
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function noSeriousViolations(opened: AppPage, what: string): Promise<void> {
  const serious = (await opened.axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious, [], what);
}

interface KeysAnswer {
  keys: string[];
  type: string;
  length: number;
  entropy_bits: number;
}

describe('keys page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  const generateKeys = (query: string) => web.api<KeysAnswer>('GET', `/v1/auth/generate-key?${query}`);
  const result = (page: Page) => page.getByRole('region', { name: 'Result' });
  const shownKeys = (page: Page) => result(page).getByRole('list', { name: 'Keys' }).locator('code').allTextContents();
  /** The clipboard's text; null while the browser refuses to read it (an unfocused page under load). */
  const clipboard = (page: Page) => (page.evaluate('navigator.clipboard.readText()') as Promise<string>).catch(() => null);

  it('random keys: the schema’s types, the count asked, as the API answers, each key copyable', async () => {
    const opened = await web.openSignedIn('/tools/keys');
    const { page, context } = opened;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.url });
    await page.getByRole('heading', { level: 1, name: 'Keys and key pairs' }).waitFor();
    const typeParameter = OPENAPI.paths['/v1/auth/generate-key'].get.parameters.find((p) => p.name === 'type')!;
    await page.getByLabel('Type').getByRole('option').first().waitFor({ state: 'attached' });
    assert.deepEqual(await page.getByLabel('Type').getByRole('option').allInnerTexts(), typeParameter.schema.enum);
    // The page opens on one API key.
    await eventually(async () => (await shownKeys(page)).map((k) => /^dk_[0-9A-Za-z]{32}$/.test(k)), [true], 'first key');

    await page.getByLabel('Type').selectOption('uuid');
    await page.getByLabel('Count').fill('3');
    const uuids = await generateKeys('type=uuid&count=3');
    await eventually(async () => (await shownKeys(page)).map((k) => UUID_V4.test(k)), [true, true, true], 'three uuids');
    const summary = result(page).locator('.keys-summary');
    assert.equal(
      await summary.innerText(),
      `3 UUID v4s, ${uuids.entropy_bits} bits of randomness each, length ${uuids.length} characters.`,
    );
    const keys = await shownKeys(page);
    assert.equal(new Set(keys).size, 3);
    assert.ok(!keys.some((k) => uuids.keys.includes(k)));
    await result(page).getByRole('button', { name: 'Copy key 2' }).click();
    await eventually(() => clipboard(page), keys[1], 'copied key 2');
    await result(page).getByRole('button', { name: 'Copy all keys' }).click();
    await eventually(() => clipboard(page), keys.join('\n'), 'copied all');

    await page.getByLabel('Type').selectOption('hex');
    await page.getByLabel('Length').fill('16');
    const hex = await generateKeys('type=hex&length=16&count=3');
    await eventually(async () => (await shownKeys(page)).map((k) => /^[0-9a-f]{32}$/.test(k)), [true, true, true], 'hex keys');
    assert.equal(await summary.innerText(), `3 hex keys, ${hex.entropy_bits} bits of randomness each, length ${hex.length} random bytes.`);
    // "Generate again" draws new keys for the same inputs.
    const before = await shownKeys(page);
    await page.getByRole('button', { name: 'Generate again' }).click();
    await eventually(async () => (await shownKeys(page)).some((k) => before.includes(k)), false, 'new keys');
    await noSeriousViolations(opened, 'random keys');
    opened.assertNoProblems();
    await opened.close();
  });

  it("a length under 8 shows the API's detail next to Length", async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/keys');
    const length = page.getByLabel('Length');
    await length.fill('4');
    const refusal = await fetch(`${web.url}/v1/auth/generate-key?length=4`, { headers: { 'x-api-key': web.apiKey } });
    assert.equal(refusal.status, 422);
    const { detail } = (await refusal.json()) as { detail: string };
    await eventually(() => length.getAttribute('aria-invalid'), 'true', 'length invalid');
    assert.equal((await describedBy(page, length))[0], detail);
    assert.equal(await page.getByLabel('Count').getAttribute('aria-invalid'), null);
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.deepEqual(apiErrors, ['GET /v1/auth/generate-key 422']);
    assertNoProblems();
    await close();
  });

  it('key pairs: Run shows both keys with copy and download, and the pair signs and verifies', async () => {
    const opened = await web.openSignedIn('/tools/keys');
    const { page, context } = opened;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.url });
    await page.getByRole('tab', { name: 'Key pair' }).click();
    await result(page).getByText('Press Run to generate a key pair.').waitFor();
    // The example is an EC P-256 pair: only EC takes a curve, only RSA a modulus length.
    assert.equal(await page.getByLabel('Type').inputValue(), 'ec');
    assert.equal(await page.getByLabel('Modulus length').count(), 0);
    await page.getByLabel('Curve').selectOption('P-384');
    await page.getByRole('button', { name: 'Run' }).click();
    const publicKey = result(page).getByRole('region', { name: 'Public key' });
    const privateKey = result(page).getByRole('region', { name: 'Private key' });
    await publicKey.waitFor();
    assert.equal(await result(page).locator('.keys-summary').innerText(), 'EC P-384 key pair, PEM: SPKI public key, PKCS#8 private key.');
    const publicPem = (await publicKey.locator('pre').textContent())!;
    const privatePem = (await privateKey.locator('pre').textContent())!;
    assert.match(publicPem, /^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    assert.match(privatePem, /^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
    // The two keys are one pair: what the private key signs, the public key verifies.
    const { token } = await web.api<{ token: string }>('POST', '/v1/auth/jwt-generate', {
      payload: { sub: 'k' },
      algorithm: 'ES384',
      private_key: privatePem,
    });
    assert.deepEqual(await web.api('POST', '/v1/auth/jwt-verify', { token, public_key: publicPem }), {
      valid: true,
      header: { alg: 'ES384', typ: 'JWT' },
      payload: (await web.api<{ payload: unknown }>('POST', '/v1/auth/jwt-decode', { token })).payload,
    });

    await publicKey.getByRole('button', { name: 'Copy public key' }).click();
    await eventually(() => clipboard(page), publicPem, 'copied public key');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      privateKey.getByRole('button', { name: 'Download private key' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'ec-p-384-private.pem');
    assert.equal(readFileSync(await download.path(), 'utf8'), privatePem);

    // JWK: the same members as the API's answer for the same request.
    await page.getByLabel('Type').selectOption('ed25519');
    assert.equal(await page.getByLabel('Curve').count(), 0);
    await page.getByLabel('Format').selectOption('jwk');
    await page.getByRole('button', { name: 'Run' }).click();
    await result(page).getByText('Ed25519 key pair, JWK.').waitFor();
    const expected = await web.api<{ public_key: object; private_key: object; type: string; curve: string }>(
      'POST',
      '/v1/auth/generate-keypair',
      {
        type: 'ed25519',
        format: 'jwk',
      },
    );
    const shownPublic = JSON.parse((await publicKey.locator('pre').textContent())!) as Record<string, unknown>;
    const shownPrivate = JSON.parse((await privateKey.locator('pre').textContent())!) as Record<string, unknown>;
    assert.deepEqual(Object.keys(shownPublic).sort(), Object.keys(expected.public_key).sort());
    assert.deepEqual(Object.keys(shownPrivate).sort(), Object.keys(expected.private_key).sort());
    assert.equal(shownPublic.x, shownPrivate.x);
    const [jwk] = await Promise.all([
      page.waitForEvent('download'),
      publicKey.getByRole('button', { name: 'Download public key' }).click(),
    ]);
    assert.equal(jwk.suggestedFilename(), 'ed25519-public.jwk.json');
    assert.deepEqual(JSON.parse(readFileSync(await jwk.path(), 'utf8')), shownPublic);
    await noSeriousViolations(opened, 'key pair');
    opened.assertNoProblems();
    await opened.close();
  });
});
