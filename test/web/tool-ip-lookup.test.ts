import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, startWebApp, type WebApp } from '../helpers/browser.js';
import { describedBy, eventually } from '../helpers/tool-pages.js';

interface Geo {
  ip: string;
  country_code: string | null;
  country: string | null;
  region: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
  reserved: boolean;
}

/** The card's facts as [term, text] pairs. */
const factsOf = (page: Page) =>
  page
    .getByRole('region', { name: 'Result' })
    .locator('.geo-fact')
    .evaluateAll((facts) =>
      facts.map((f) => [f.querySelector('dt')?.textContent ?? '', f.querySelector('dd .geo-value, dd .hint')?.textContent ?? '']),
    );

/** The facts the card should show for an answer, written out from its fields. */
function expectedFacts(geo: Geo): string[][] {
  const degrees = (v: number, pos: string, neg: string) => `${Math.abs(v).toFixed(4)}° ${v < 0 ? neg : pos}`;
  return [
    ['Country', `${geo.country} (${geo.country_code})`],
    ['Region', geo.region!],
    ['City', geo.city!],
    ['Coordinates', `${degrees(geo.latitude!, 'N', 'S')}, ${degrees(geo.longitude!, 'E', 'W')}`],
  ];
}

describe('IP geolocation page in Chromium', { skip: browserSkipReason() }, () => {
  let web: WebApp;
  before(async () => {
    web = await startWebApp();
  });
  after(() => web?.close());

  const locate = (ip?: string) =>
    web.api<Geo>('GET', ip === undefined ? '/v1/geo/ip-lookup' : `/v1/geo/ip-lookup?ip=${encodeURIComponent(ip)}`);

  it('opens on your own address, which on loopback is reserved, said in words; the API answers the same', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/ip-lookup');
    const requests: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/v1/geo/')) requests.push(r.url().slice(web.url.length));
    });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'IP geolocation' }).waitFor();
    assert.equal(await page.getByLabel('IP address').inputValue(), '');
    const result = page.getByRole('region', { name: 'Result' });
    await result.locator('.geo-reserved').waitFor();
    const mine = await locate();
    assert.deepEqual(mine, {
      ip: '127.0.0.1',
      country_code: null,
      country: null,
      region: null,
      city: null,
      latitude: null,
      longitude: null,
      reserved: true,
    });
    assert.equal(await result.locator('.geo-kind').innerText(), 'Your address');
    assert.equal(await result.locator('.geo-address code').innerText(), mine.ip);
    assert.deepEqual(await result.locator('.geo-reserved p').allInnerTexts(), [
      'Reserved address: 127.0.0.1 is a loopback address (this machine itself). Reserved ranges are not routed on the public internet, so it has no location.',
      'This is the address the service sees you connecting from: you are on the same machine or private network as the service (or behind a proxy it is not set to trust). Enter a public address to locate it.',
    ]);
    assert.equal(await page.getByRole('button', { name: 'Use my address' }).isDisabled(), true);
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);
    // The page asked with no address at all, so the service used the caller's (the load before the
    // reload may be seen too, asking the same).
    assert.ok(requests.length >= 1);
    assert.deepEqual(new Set(requests), new Set(['/v1/geo/ip-lookup']));
    assertNoProblems();
    await close();
  });

  it('a public address: country with its name, region, city and coordinates as the API answers them', async () => {
    const { page, assertNoProblems, axeViolations, close } = await web.openSignedIn('/tools/ip-lookup', {
      context: { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
    });
    await page.locator('.geo-reserved').waitFor();
    const field = page.getByLabel('IP address');
    await field.fill('8.8.8.8');
    const google = await locate('8.8.8.8');
    assert.equal(google.reserved, false);
    assert.equal(google.country, 'United States');
    await eventually(() => factsOf(page), expectedFacts(google), '8.8.8.8');
    const result = page.getByRole('region', { name: 'Result' });
    assert.equal(await result.locator('.geo-kind').innerText(), 'Address');
    assert.equal(await result.locator('.geo-address code').innerText(), '8.8.8.8');
    assert.equal(await result.locator('.geo-reserved').count(), 0);

    await field.fill('2a00:1450:4001::1');
    const v6 = await locate('2a00:1450:4001::1');
    assert.equal(v6.country_code, 'DE');
    await eventually(() => factsOf(page), expectedFacts(v6), 'IPv6');
    assert.equal(await page.evaluate('document.documentElement.scrollWidth'), 360);
    const serious = (await axeViolations()).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, []);

    await page.getByRole('button', { name: 'Use my address' }).click();
    assert.equal(await field.inputValue(), '');
    await eventually(() => result.locator('.geo-address code').innerText(), '127.0.0.1', 'back to mine');
    assert.equal(await result.locator('.geo-kind').innerText(), 'Your address');
    assertNoProblems();
    await close();
  });

  it("an address that is not one shows the API's detail next to the field", async () => {
    const { page, apiErrors, assertNoProblems, close } = await web.openSignedIn('/tools/ip-lookup');
    await page.locator('.geo-reserved').waitFor();
    const field = page.getByLabel('IP address');
    await field.fill('999.1.1.1');
    const refusal = await fetch(`${web.url}/v1/geo/ip-lookup?ip=999.1.1.1`, { headers: { 'x-api-key': web.apiKey } });
    assert.equal(refusal.status, 422);
    const { detail } = (await refusal.json()) as { detail: string };
    await eventually(() => field.getAttribute('aria-invalid'), 'true', 'ip invalid');
    assert.deepEqual(await describedBy(page, field), [
      detail,
      "IPv4 or IPv6 address (spaces around it, as pasted, are ignored); omit or leave empty for the caller's address.",
    ]);
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.equal(await page.getByRole('region', { name: 'Result' }).getByText('No result: see the error next to the field.').count(), 1);
    assert.deepEqual(apiErrors, ['GET /v1/geo/ip-lookup 422']);
    assertNoProblems();
    await close();
  });
});
