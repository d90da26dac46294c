import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ERROR_CATALOGUE } from '../../src/errors.js';
import { CLIENT_ROUTES } from '../../src/http/web-app.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

type Operation = {
  responses?: Record<
    string,
    { content?: Record<string, { schema?: { properties?: { code?: { enum?: string[] } } } }>; headers?: Record<string, { $ref?: string }> }
  >;
  requestBody?: unknown;
  summary?: string;
  description?: string;
  security?: Array<Record<string, unknown>>;
};

/** The web app's routes (src/http/web-app.ts): its HTML and its assets, hidden from the document. */
const WEB_APP_URLS = new Set([...CLIENT_ROUTES, '/assets/:name']);

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { headers: Record<string, { schema: { type: string } }> };
  };
  before(async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    doc = res.json();
  });
  after(() => t.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

  it('is OpenAPI 3.1 and needs no key', () => {
    assert.equal(doc.openapi, '3.1.0');
  });

  it('is valid against the OpenAPI 3.1 schema', async () => {
    const result = await new Validator().validate(doc as never);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
  });

  it('documents every route of the app', () => {
    const documented = new Set(operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`));
    // OpenAPI can express only these methods; routes that take any method (catch, mock) document
    // those and say "any method" in their description. A `/*` sub-path route shares its base path's entry.
    const expressible = new Set(['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'PATCH']);
    for (const { method, url } of t.app.routeTable) {
      // Not operations of the API: the document itself, its browsable reference, CORS preflights, the web app's files.
      if (
        !expressible.has(method) ||
        url === '/openapi.json' ||
        url.startsWith('/docs') ||
        (method === 'OPTIONS' && url === '/*') ||
        WEB_APP_URLS.has(url)
      )
        continue;
      const openapiPath = url.replace(/\/\*$/, '').replace(/:([A-Za-z_]+)/g, '{$1}');
      assert.ok(documented.has(`${method} ${openapiPath}`), `${method} ${url} is missing from /openapi.json`);
    }
  });

  it('documents every error code of the catalogue', () => {
    const codes = new Set<string>();
    for (const { op } of operations()) {
      for (const response of Object.values(op.responses ?? {})) {
        for (const media of Object.values(response.content ?? {})) for (const c of media.schema?.properties?.code?.enum ?? []) codes.add(c);
      }
    }
    const missing = Object.keys(ERROR_CATALOGUE).filter((c) => !codes.has(c));
    assert.deepEqual(missing, [], `undocumented error codes: ${missing.join(', ')}`);
  });

  it('every response lists the headers it carries', () => {
    const refs = (op: Operation, status: string) => Object.keys(op.responses?.[status]?.headers ?? {});
    for (const { path, method, op } of operations()) {
      for (const status of Object.keys(op.responses ?? {}))
        assert.ok(refs(op, status).includes('X-Request-Id'), `${method} ${path} ${status}`);
    }
    const sort = doc.paths['/v1/array-ops'].post;
    assert.deepEqual(refs(sort, '200'), [
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-Credits-Limit',
      'X-Credits-Remaining',
    ]);
    assert.ok(refs(sort, '429').includes('Retry-After'));
    // A DELETE takes no body, but one sent anyway is read: its refusals are documented.
    for (const status of ['400', '413', '415']) assert.ok(doc.paths['/v1/bins/{bin_id}'].delete.responses?.[status], status);
    // Refusals made before the request is counted carry no rate-limit headers.
    for (const status of ['401', '403']) assert.deepEqual(refs(sort, status), ['X-Request-Id'], status);
    assert.deepEqual(refs(doc.paths['/healthz'].get, '200'), ['X-Request-Id']);
    for (const name of ['X-Request-Id', 'X-Credits-Remaining', 'Retry-After']) assert.ok(doc.components.headers[name]?.schema.type, name);
    // Public routes too list the answers any request can get before routing.
    for (const path of ['/healthz', '/v1/catch/{bin_id}', '/v1/mock/{mock_id}']) {
      for (const [method, op] of Object.entries(doc.paths[path]))
        assert.ok(op.responses?.['408'] && op.responses['431'], `${method} ${path}`);
    }
    // Successes are described by their status's name where the route gives no description.
    assert.equal((doc.paths['/v1/bins'].post.responses?.['201'] as { description?: string }).description, 'Created');
    assert.equal((doc.paths['/v1/array-ops'].post.responses?.['200'] as { description?: string }).description, 'OK');
  });

  it('a request body is required only when it has a required field (a body-less POST /v1/bins creates a bin)', async () => {
    const body = (path: string, method: string) => doc.paths[path]![method]!.requestBody as { required?: boolean };
    assert.equal(body('/v1/bins', 'post').required, false);
    assert.equal(body('/v1/mocks/{mock_id}', 'patch').required, false);
    assert.equal(body('/v1/json-transform', 'post').required, true);
    assert.equal(body('/v1/auth/hash', 'post').required, true);
    const created = await t.app.inject({ method: 'POST', url: '/v1/bins', headers: t.auth });
    assert.equal(created.statusCode, 201);
  });

  it('the catch path is documented at its sub-paths too, with storage_unavailable and without any 500', () => {
    for (const path of ['/v1/catch/{bin_id}', '/v1/catch/{bin_id}/{sub_path}']) {
      const op = doc.paths[path]!.post!;
      assert.deepEqual(Object.keys(op.responses!).sort(), ['200', '404', '408', '413', '431', '503'], path);
      assert.deepEqual(op.responses!['503']!.content!['application/json']!.schema!.properties!.code!.enum, ['storage_unavailable'], path);
    }
    const params = (doc.paths['/v1/catch/{bin_id}/{sub_path}']!.get as { parameters: Array<{ name: string; in: string }> }).parameters;
    assert.deepEqual(
      params.map((p) => `${p.in}:${p.name}`),
      ['path:bin_id', 'path:sub_path'],
    );
  });

  it('the json-transform 400 documents the JMESPath error fields of CONTRACT §3.2', () => {
    const schema = doc.paths['/v1/json-transform']!.post!.responses!['400']!.content!['application/json']!.schema as {
      properties: Record<string, unknown>;
    };
    for (const field of ['detail', 'code', 'error', 'error_type', 'expression', 'position'])
      assert.ok(Object.hasOwn(schema.properties, field), field);
  });

  it('every operation has a summary and a success response', () => {
    for (const { path, method, op } of operations()) {
      assert.ok(op.summary || op.description, `${method} ${path} has no summary`);
      assert.ok(
        Object.keys(op.responses ?? {}).some((s) => /^2/.test(s)),
        `${method} ${path} documents no 2xx response`,
      );
    }
  });

  it('/docs serves the browsable reference from installed files', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /swagger-ui/i);
    assert.ok(!/https?:\/\/(cdn|unpkg|cdnjs)/.test(res.body), 'no CDN');
    // Its CSP keeps the page on the scheme it was served with (a self-hosted http host has no https).
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'self'/);
    assert.doesNotMatch(csp, /upgrade-insecure-requests/);
  });
});
