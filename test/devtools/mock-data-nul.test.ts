import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { MYSQL_ARGS, mysqlMissing, runClient, sqlite3Missing } from '../helpers/clients.js';

const NUL_VALUE = { name: 'note', type: 'constant', options: { value: 'a\u0000b\u0000\u0000c' } };
const FIELDS = [{ name: 'id', type: 'sequence' }, NUL_VALUE];
const HEX = Buffer.from('a\u0000b\u0000\u0000c').toString('hex').toUpperCase();

describe('POST /v1/mock-data: a NUL character in a value or a name', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const post = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: { rows: 1, fields: FIELDS, ...payload } });
  const text = async (payload: Record<string, unknown>) => {
    const res = await post(payload);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as string;
  };

  it('sqlite: each run of NUL (and CR) characters written as one char() call, concatenated', async () => {
    const sql = await text({ output_format: 'sql' });
    assert.equal(
      sql,
      `CREATE TABLE "mock_data" ("id" INTEGER, "note" TEXT);\nINSERT INTO "mock_data" ("id", "note") VALUES (1, 'a' || char(0) || 'b' || char(0, 0) || 'c');\n`,
    );
    const leading = await text({
      output_format: 'sql',
      create_table: false,
      fields: [{ name: 'n', type: 'constant', options: { value: '\u0000\r\nx\u0000' } }],
    });
    assert.equal(leading, `INSERT INTO "mock_data" ("n") VALUES (char(0, 13) || '\nx' || char(0));\n`);
  });

  it('the sqlite3 CLI stores exactly the bytes of the value', { skip: sqlite3Missing() }, async () => {
    const sql = await text({ output_format: 'sql', rows: 2 });
    const run = runClient('sqlite3', [':memory:'], `${sql}SELECT id, hex(note), typeof(note) FROM mock_data;\n`);
    assert.equal(run.stderr, '');
    assert.equal(run.stdout, `1|${HEX}|text\n2|${HEX}|text\n`);
  });

  it("mysql: written as \\0 (mysqldump's escape)", async () => {
    const sql = await text({ output_format: 'sql', dialect: 'mysql', create_table: false });
    assert.equal(sql, "INSERT INTO `mock_data` (`id`, `note`) VALUES (1, 'a\\0b\\0\\0c');\n");
  });

  it('a MySQL or MariaDB server stores exactly the bytes of the value', { skip: mysqlMissing() }, async () => {
    const database = `devutil_nul_${process.pid}`;
    const sql = await text({ output_format: 'sql', dialect: 'mysql' });
    try {
      assert.equal(runClient('mysql', [...MYSQL_ARGS, '-e', `CREATE DATABASE \`${database}\``]).status, 0);
      const run = runClient('mysql', [...MYSQL_ARGS, '-N', '-B', `--database=${database}`], `${sql}SELECT id, HEX(note) FROM mock_data;\n`);
      assert.equal(run.stderr, '');
      assert.equal(run.stdout, `1\t${HEX}\n`);
    } finally {
      runClient('mysql', [...MYSQL_ARGS, '-e', `DROP DATABASE IF EXISTS \`${database}\``]);
    }
  });

  it('postgres: 422 naming the field and the row (PostgreSQL text cannot hold NUL)', async () => {
    const res = await post({ output_format: 'sql', dialect: 'postgres', rows: 3 });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json(), {
      detail:
        'fields[1] ("note") holds a NUL character (U+0000) in row 1, which PostgreSQL text cannot store; use dialect sqlite or mysql, or another output_format.',
      code: 'validation_error',
      errors: [{ path: 'fields[1]', message: 'holds a NUL character (U+0000) in row 1, which PostgreSQL text cannot store' }],
    });
  });

  it('CSV: 422 naming the field and the row; a drawn value (regex) is caught the same way', async () => {
    const res = await post({ output_format: 'csv' });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json(), {
      detail:
        'fields[1] ("note") holds a NUL character (U+0000) in row 1, which CSV output does not carry; use output_format json, sql or xml.',
      code: 'validation_error',
      errors: [{ path: 'fields[1]', message: 'holds a NUL character (U+0000) in row 1, which CSV output does not carry' }],
    });
    const drawn = await post({
      output_format: 'csv',
      rows: 5,
      fields: [
        { name: 'id', type: 'sequence' },
        { name: 'code', type: 'regex', options: { pattern: '[a-c]{3}(\\x00)?' } },
      ],
      seed: 3,
    });
    assert.equal(drawn.statusCode, 422, drawn.body);
    assert.match(drawn.json().errors[0].message, /^holds a NUL character \(U\+0000\) in row [1-5], which CSV output does not carry$/);
    assert.equal(drawn.json().errors[0].path, 'fields[1]');
  });

  it('CSV and postgres: the same 422 when the rows are drawn on a worker (a large request)', async () => {
    for (const [payload, what] of [
      [{ output_format: 'csv' }, 'CSV output does not carry'],
      [{ output_format: 'sql', dialect: 'postgres' }, 'PostgreSQL text cannot store'],
    ] as const) {
      const res = await post({
        ...payload,
        rows: 1000,
        fields: [...FIELDS, ...Array.from({ length: 4 }, (_, i) => ({ name: `w${i}`, type: 'word' }))],
      });
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(res.json().errors, [{ path: 'fields[1]', message: `holds a NUL character (U+0000) in row 1, which ${what}` }]);
    }
  });

  it('a NUL in a field name is a 422 on the name for CSV and SQL (every dialect, table_name too); JSON keeps it', async () => {
    const fields = [
      { name: 'a\u0000b', type: 'sequence' },
      { name: 'p', type: 'price', options: { min: 5, max: 1 } },
    ];
    const csv = await post({ output_format: 'csv', fields });
    assert.equal(csv.statusCode, 422);
    assert.deepEqual(csv.json().errors, [
      { path: 'fields[0].name', message: 'holds a NUL character, which CSV output does not carry' },
      { path: 'fields[1].options.max', message: 'must be greater than or equal to min (5)' },
    ]);
    for (const dialect of ['sqlite', 'postgres', 'mysql']) {
      const res = await post({ output_format: 'sql', dialect, fields, table_name: 't\u0000' });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().errors, [
        { path: 'table_name', message: 'holds a NUL character, which SQL names cannot' },
        { path: 'fields[0].name', message: 'holds a NUL character, which SQL names cannot' },
        { path: 'fields[1].options.max', message: 'must be greater than or equal to min (5)' },
      ]);
    }
    const json = await post({ fields: [{ name: 'a\u0000b', type: 'sequence' }, NUL_VALUE], table_name: 't\u0000' });
    assert.equal(json.statusCode, 200);
    assert.equal(json.body, '{"data":[{"a\\u0000b":1,"note":"a\\u0000b\\u0000\\u0000c"}],"rows":1,"fields":2}');
  });

  it('XML writes U+FFFD for it (XML 1.0 cannot carry NUL even as a reference)', async () => {
    assert.equal(await text({ output_format: 'xml' }), '<rows><row><id>1</id><note>a\uFFFDb\uFFFD\uFFFDc</note></row></rows>');
  });

  it('the OpenAPI description says what each format does with NUL', async () => {
    const description = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths['/v1/mock-data'].post
      .description as string;
    for (const words of [
      'a NUL character in a value or field name → 422 naming the field',
      "char(0) and char(13) concatenated (`'a' || char(0) || 'b'`)",
      'postgres output with one → 422 naming the field and row',
      'control characters, lone surrogates) become U+FFFD',
    ]) {
      assert.ok(description.includes(words), words);
    }
  });
});
