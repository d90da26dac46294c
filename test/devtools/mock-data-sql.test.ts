import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { MYSQL_ARGS, mysqlMissing, postgresMissing, PSQL_ENV, runClient, sqlite3Missing } from '../helpers/clients.js';

const HOSTILE = `it's "q"\r\n\\ back\\slash; DROP TABLE x; -- 🎉 Zürich`;

/** Every column kind, reserved words as names, values that need quoting, a nullable field, non-ASCII names from de_DE. */
const ALL_KINDS = {
  fields: [
    { name: 'id', type: 'sequence' },
    { name: 'qty', type: 'integer', options: { min: -5, max: 5 } },
    { name: 'price', type: 'price' },
    { name: 'active', type: 'boolean' },
    { name: 'day', type: 'date' },
    { name: 'at', type: 'datetime' },
    { name: 'clock', type: 'time' },
    { name: 'who', type: 'name' },
    { name: 'email', type: 'email', options: { nullable: true, null_ratio: 0.5 } },
    { name: 'level', type: 'enum', options: { values: [1, 2, 3] } },
    { name: 'mixed', type: 'enum', options: { values: [1, 'a', true] } },
    { name: 'meta', type: 'constant', options: { value: { a: [1, 'x'] } } },
    { name: 'note', type: 'constant', options: { value: HOSTILE } },
    { name: 'select', type: 'emoji' },
  ],
  rows: 6,
  seed: 20261122,
  locale: 'de_DE',
  table_name: 'my table "x"',
};

const CREATE = {
  sqlite:
    'CREATE TABLE "my table ""x""" ("id" INTEGER, "qty" INTEGER, "price" REAL, "active" BOOLEAN, "day" TEXT, "at" TEXT, "clock" TEXT, ' +
    '"who" TEXT, "email" TEXT, "level" INTEGER, "mixed" TEXT, "meta" TEXT, "note" TEXT, "select" TEXT);\n',
  postgres:
    'CREATE TABLE "my table ""x""" ("id" BIGINT, "qty" BIGINT, "price" DOUBLE PRECISION, "active" BOOLEAN, "day" DATE, "at" TIMESTAMPTZ, ' +
    '"clock" TIME, "who" TEXT, "email" TEXT, "level" BIGINT, "mixed" TEXT, "meta" TEXT, "note" TEXT, "select" TEXT);\n',
  mysql:
    'CREATE TABLE `my table "x"` (`id` BIGINT, `qty` BIGINT, `price` DOUBLE, `active` BOOLEAN, `day` DATE, `at` DATETIME(3), `clock` TIME, ' +
    '`who` TEXT, `email` TEXT, `level` BIGINT, `mixed` TEXT, `meta` TEXT, `note` TEXT, `select` TEXT) DEFAULT CHARSET=utf8mb4;\n',
};

type Row = Record<string, unknown>;

/** The JSON rows as a database gives them back: booleans as `active` reads them, mixed and object values as text. */
function asStored(rows: Row[], active: (b: boolean) => unknown, at: (iso: string) => unknown = (iso) => iso): Row[] {
  return rows.map((row) => ({
    ...row,
    active: active(row.active as boolean),
    at: at(row.at as string),
    mixed: String(row.mixed),
    meta: JSON.stringify(row.meta),
  }));
}

describe('POST /v1/mock-data SQL runs as delivered', () => {
  let t: TestApp;
  let json: Row[];
  before(async () => {
    t = await buildTestApp();
    json = (await generate({})).data as Row[];
    assert.equal(json.length, 6);
    assert.ok(json.some((r) => r.email === null) && json.some((r) => r.email !== null), 'the seed gives both null and non-null e-mails');
  });
  after(() => t.close());

  async function generate(extra: Record<string, unknown>, payload: Record<string, unknown> = ALL_KINDS) {
    const res = await t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: { ...payload, ...extra } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { data: unknown; rows: number; fields: number; output_format?: string };
  }
  const sql = async (extra: Record<string, unknown>, payload?: Record<string, unknown>) =>
    (await generate({ output_format: 'sql', ...extra }, payload)).data as string;

  for (const dialect of ['sqlite', 'postgres', 'mysql'] as const) {
    it(`${dialect}: CREATE TABLE first, column types from the field types, then one INSERT per row`, async () => {
      const text = await sql(dialect === 'sqlite' ? {} : { dialect });
      const lines = text.split(/(?<=;\n)/);
      assert.equal(lines.length, 7);
      assert.equal(lines[0], CREATE[dialect]);
      const q = dialect === 'mysql' ? '`' : '"';
      for (const line of lines.slice(1))
        assert.ok(
          line.startsWith(`INSERT INTO ${dialect === 'mysql' ? '`my table "x"`' : '"my table ""x"""'} (${q}id${q}, ${q}qty${q}, `),
          line,
        );
    });
  }

  it('create_table: false leaves out the CREATE TABLE; the INSERT lines stay byte for byte', async () => {
    const full = await sql({});
    const inserts = await sql({ create_table: false });
    assert.equal(`${CREATE.sqlite}${inserts}`, full);
  });

  it("the sqlite3 CLI runs the output in :memory: and gives back the JSON output's values", { skip: sqlite3Missing() }, async () => {
    const run = runClient('sqlite3', [':memory:'], `${await sql({})}.mode json\nSELECT * FROM "my table ""x""";\n`);
    assert.equal(run.stderr, '');
    assert.equal(run.status, 0);
    assert.deepEqual(
      JSON.parse(run.stdout),
      asStored(json, (b) => (b ? 1 : 0)),
    );
  });

  it("psql runs the postgres output and gives back the JSON output's values", { skip: postgresMissing() }, async () => {
    const script = `SET TIME ZONE 'UTC';\nBEGIN;\n${await sql({ dialect: 'postgres' })}SELECT row_to_json(t) FROM "my table ""x""" t ORDER BY id;\nROLLBACK;\n`;
    const run = runClient('psql', ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1'], script, PSQL_ENV);
    assert.equal(run.stderr, '');
    assert.equal(run.status, 0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    // row_to_json writes a timestamptz as 2020-07-15T10:11:12.34+00:00 (no trailing zeros).
    assert.deepEqual(
      rows.map((row) => ({ ...row, at: new Date(row.at as string).toISOString() })),
      asStored(json, (b) => b),
    );
  });

  describe('mysql output in a MySQL or MariaDB server', { skip: mysqlMissing() }, () => {
    const database = `devutil_test_${process.pid}`;
    const mysql = (script: string, args: string[] = []) => runClient('mysql', [...MYSQL_ARGS, ...args], script);
    before(() => assert.equal(mysql(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4;`).status, 0));
    after(() => mysql(`DROP DATABASE IF EXISTS \`${database}\`;`));

    it("the mysql client runs it and gives back the JSON output's values", async () => {
      const columns = ALL_KINDS.fields.map((f) => `'${f.name}', \`${f.name}\``).join(', ');
      const script = `${await sql({ dialect: 'mysql' })}SELECT JSON_OBJECT(${columns}) FROM \`my table "x"\` ORDER BY id;\n`;
      const run = mysql(script, ['-N', '-B', '--raw', `--database=${database}`]);
      assert.equal(run.stderr, '');
      assert.equal(run.status, 0);
      const rows = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Row);
      assert.deepEqual(
        rows,
        asStored(
          json,
          (b) => (b ? 1 : 0),
          (iso) => iso.replace('T', ' ').replace('Z', ''),
        ),
      );
    });
  });

  describe('names a dialect cannot take are a 422 on the name', () => {
    const refuse = async (payload: Record<string, unknown>, errors: { path: string; message: string }[]) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/mock-data',
        headers: t.auth,
        payload: { rows: 1, output_format: 'sql', ...payload },
      });
      assert.equal(res.statusCode, 422, res.body);
      const body = res.json();
      assert.equal(body.code, 'validation_error');
      assert.deepEqual(body.errors, errors);
      return body.detail as string;
    };
    const n = (name: string) => ({ name, type: 'sequence' });

    it('postgres: a name over 63 bytes (PostgreSQL cuts it), counted in UTF-8', async () => {
      const message = 'is longer than 63 bytes, which PostgreSQL cuts identifiers to';
      await refuse({ dialect: 'postgres', fields: [n('a'.repeat(64)), n('é'.repeat(32))], table_name: 'é'.repeat(31) + 'x' }, [
        { path: 'fields[0].name', message },
        { path: 'fields[1].name', message },
      ]);
      const ok = await sql(
        { dialect: 'postgres', rows: 1, create_table: false },
        { fields: [n('a'.repeat(63))], table_name: 'é'.repeat(31) + 'x' },
      );
      assert.equal(ok, `INSERT INTO "${'é'.repeat(31)}x" ("${'a'.repeat(63)}") VALUES (1);\n`);
    });

    it('mysql: a table name over 64 characters, a name ending in a space', async () => {
      await refuse({ dialect: 'mysql', fields: [n('ok'), n('trailing ')], table_name: 't'.repeat(65) }, [
        { path: 'table_name', message: 'is longer than 64 characters, the MySQL limit' },
        { path: 'fields[1].name', message: 'ends with a space, which MySQL refuses in names' },
      ]);
    });

    it('sqlite and mysql: two names equal ignoring case are one column; postgres keeps them apart', async () => {
      for (const [dialect, label] of [
        ['sqlite', 'SQLite'],
        ['mysql', 'MySQL'],
      ]) {
        const detail = await refuse({ dialect, fields: [n('id'), n('ID')] }, [
          { path: 'fields[1].name', message: `is the same ${label} column as fields[0].name (names are compared case-insensitively)` },
        ]);
        assert.equal(
          detail,
          `Invalid names for this output: fields[1].name is the same ${label} column as fields[0].name (names are compared case-insensitively).`,
        );
      }
      const ok = await sql({ dialect: 'postgres', rows: 1 }, { fields: [n('id'), n('ID')] });
      assert.equal(ok, 'CREATE TABLE "mock_data" ("id" BIGINT, "ID" BIGINT);\nINSERT INTO "mock_data" ("id", "ID") VALUES (1, 1);\n');
    });

    it('the same names are fine for JSON output', async () => {
      const body = await generate({ rows: 1 }, { fields: [n('id'), n('ID'), n('a'.repeat(64))], table_name: 't'.repeat(65) });
      assert.deepEqual(body.data, [{ id: 1, ID: 1, ['a'.repeat(64)]: 1 }]);
    });
  });

  it('sqlite, postgres and mysql quoting of the same values, exactly', async () => {
    const payload = {
      fields: [
        { name: 'we`i"rd', type: 'constant', options: { value: "O'Brien \\n \r \u001a" } },
        { name: 'n', type: 'constant', options: { value: null } },
      ],
      rows: 1,
      table_name: 't',
    };
    assert.equal(
      await sql({}, payload),
      `CREATE TABLE "t" ("we\`i""rd" TEXT, "n" TEXT);\nINSERT INTO "t" ("we\`i""rd", "n") VALUES ('O''Brien \\n ' || char(13) || ' \u001a', NULL);\n`,
    );
    assert.equal(
      await sql({ dialect: 'postgres' }, payload),
      `CREATE TABLE "t" ("we\`i""rd" TEXT, "n" TEXT);\nINSERT INTO "t" ("we\`i""rd", "n") VALUES ('O''Brien \\n \r \u001a', NULL);\n`,
    );
    assert.equal(
      await sql({ dialect: 'mysql' }, payload),
      "CREATE TABLE `t` (`we``i\"rd` TEXT, `n` TEXT) DEFAULT CHARSET=utf8mb4;\nINSERT INTO `t` (`we``i\"rd`, `n`) VALUES ('O''Brien \\\\n \\r \\Z', NULL);\n",
    );
  });

  it('an unknown dialect or a non-boolean create_table is a 422 on the field', async () => {
    for (const [extra, path] of [
      [{ dialect: 'oracle' }, 'dialect'],
      [{ create_table: 'no' }, 'create_table'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/mock-data',
        headers: t.auth,
        payload: { fields: [{ name: 'a', type: 'uuid' }], output_format: 'sql', ...extra },
      });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, 'validation_error');
      assert.deepEqual(
        res.json().errors.map((e: { path: string }) => e.path),
        [path],
      );
    }
  });

  it('the OpenAPI description of /v1/mock-data documents the dialects and CREATE TABLE', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/v1/mock-data'].post;
    for (const words of ['`create_table: false`', '`sqlite` (default), `postgres` or `mysql`', 'char(13) concatenated']) {
      assert.ok(op.description.includes(words), words);
    }
    const body = op.requestBody.content['application/json'].schema.properties;
    assert.deepEqual(body.dialect.enum, ['sqlite', 'postgres', 'mysql']);
    assert.equal(body.dialect.default, 'sqlite');
    assert.equal(body.create_table.default, true);
  });
});
