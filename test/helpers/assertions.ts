import assert from 'node:assert/strict';

interface InjectedResponse {
  statusCode: number;
  body: string;
  json(): unknown;
}

/**
 * Assert a 422 `validation_error` whose `errors[]` has an entry for `path` (and, if given, a
 * message matching `message`).
 */
export function assertFieldError(res: InjectedResponse, path: string, message?: RegExp): void {
  assert.equal(res.statusCode, 422, res.body);
  const body = res.json() as { code: string; errors: { path: string; message: string }[] };
  assert.equal(body.code, 'validation_error');
  const entry = body.errors.find((e) => e.path === path);
  assert.ok(entry, `no error on ${path}: ${res.body}`);
  if (message) assert.match(entry.message, message);
}
