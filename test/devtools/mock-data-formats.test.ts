import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const constant = (name: string, value: unknown) => ({ name, type: 'constant', options: { value } });

/** Hostile values: quotes, commas, newlines, markup, null, JSON objects, booleans, control characters. */
const HOSTILE_FIELDS = [
  { name: 'id', type: 'sequence' },
  constant('quote', 'say "hi"'),
  constant('comma', 'a,b'),
  constant('lines', 'l1\nl2\r\nl3'),
  constant('markup', `<&>'"`),
  constant('nothing', null),
  constant('obj', { a: [1, 'x'] }),
  constant('flag', true),
  constant('num', 1.5),
];

describe('POST /v1/mock-data text formats escape hostile values', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const render = async (payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/mock-data', headers: t.auth, payload: { rows: 2, ...payload } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };

  it('CSV: RFC 4180 quoting, header line, CRLF after every record, null as empty', async () => {
    const body = await render({ fields: HOSTILE_FIELDS, output_format: 'csv' });
    assert.deepEqual(Object.keys(body), ['data', 'rows', 'fields', 'output_format']);
    assert.equal(body.output_format, 'csv');
    assert.equal(body.fields, 9);
    const record = (id: number) => `${id},"say ""hi""","a,b","l1\nl2\r\nl3","<&>'""",,"{""a"":[1,""x""]}",true,1.5\r\n`;
    assert.equal(body.data, `id,quote,comma,lines,markup,nothing,obj,flag,num\r\n${record(1)}${record(2)}`);
  });

  it('CSV: field names are escaped like values', async () => {
    const body = await render({ fields: [constant('a,"b"', 1), constant('plain', 2)], rows: 1, output_format: 'csv' });
    assert.equal(body.data, '"a,""b""",plain\r\n1,2\r\n');
  });

  it('SQL: CREATE TABLE, quoted identifiers, single quotes doubled, CR as char(13), NULL, bare numbers and booleans, default table mock_data', async () => {
    const body = await render({ fields: HOSTILE_FIELDS, rows: 1, output_format: 'sql' });
    assert.equal(
      body.data,
      `CREATE TABLE "mock_data" ("id" INTEGER, "quote" TEXT, "comma" TEXT, "lines" TEXT, "markup" TEXT, "nothing" TEXT, "obj" TEXT, "flag" BOOLEAN, "num" REAL);\n` +
        `INSERT INTO "mock_data" ("id", "quote", "comma", "lines", "markup", "nothing", "obj", "flag", "num") VALUES ` +
        `(1, 'say "hi"', 'a,b', 'l1\nl2' || char(13) || '\nl3', '<&>''"', NULL, '{"a":[1,"x"]}', TRUE, 1.5);\n`,
    );
    assert.equal(body.output_format, 'sql');
  });

  it('SQL: table and column names with double quotes are doubled; one INSERT per row', async () => {
    const body = await render({
      fields: [constant('we"ird', "O'Brien"), { name: 'n', type: 'sequence' }],
      table_name: 'my "t"; DROP',
      output_format: 'sql',
    });
    assert.equal(
      body.data,
      `CREATE TABLE "my ""t""; DROP" ("we""ird" TEXT, "n" INTEGER);\n` +
        `INSERT INTO "my ""t""; DROP" ("we""ird", "n") VALUES ('O''Brien', 1);\nINSERT INTO "my ""t""; DROP" ("we""ird", "n") VALUES ('O''Brien', 2);\n`,
    );
  });

  it('XML: <rows><row><name>…</name></row></rows> with escaping, null elements and preserved CR', async () => {
    const body = await render({ fields: HOSTILE_FIELDS, rows: 1, output_format: 'xml' });
    assert.equal(
      body.data,
      '<rows><row><id>1</id><quote>say &quot;hi&quot;</quote><comma>a,b</comma><lines>l1\nl2&#13;\nl3</lines>' +
        '<markup>&lt;&amp;&gt;&apos;&quot;</markup><nothing null="true"/><obj>{&quot;a&quot;:[1,&quot;x&quot;]}</obj>' +
        '<flag>true</flag><num>1.5</num></row></rows>',
    );
    assert.equal(body.output_format, 'xml');
  });

  it('XML: field names that are not XML names become <field name="...">; forbidden characters become U+FFFD', async () => {
    const fields = [
      constant('first name', 'a'),
      constant('1st', 'b'),
      constant('<x&y>', null),
      constant('xmlns', 'c'),
      constant('ctl', 'a\u0001b\uD800'),
    ];
    const body = await render({ fields, rows: 1, output_format: 'xml' });
    assert.equal(
      body.data,
      '<rows><row><field name="first name">a</field><field name="1st">b</field><field name="&lt;x&amp;y&gt;" null="true"/>' +
        '<field name="xmlns">c</field><ctl>a\uFFFDb\uFFFD</ctl></row></rows>',
    );
  });

  it('XML: line feeds, tabs and carriage returns in a field name stay characters references in its attribute (a parser would read them as spaces); in text they stay as they are', async () => {
    const body = await render({
      fields: [constant('a\nb', 'x\ny\tz'), constant('c\td', 1), constant('e\rf', 2)],
      rows: 1,
      output_format: 'xml',
    });
    assert.equal(
      body.data,
      '<rows><row><field name="a&#10;b">x\ny\tz</field><field name="c&#9;d">1</field><field name="e&#13;f">2</field></row></rows>',
    );
  });

  it('XML: non-ASCII letters are valid element names', async () => {
    const body = await render({ fields: [constant('prénom', 'Zoë'), constant('名前', '<b>')], rows: 1, output_format: 'xml' });
    assert.equal(body.data, '<rows><row><prénom>Zoë</prénom><名前>&lt;b&gt;</名前></row></rows>');
  });

  it('JSON keeps values typed: null, objects, booleans, numbers', async () => {
    const body = await render({ fields: HOSTILE_FIELDS, rows: 1 });
    assert.deepEqual(body.data, [
      {
        id: 1,
        quote: 'say "hi"',
        comma: 'a,b',
        lines: 'l1\nl2\r\nl3',
        markup: `<&>'"`,
        nothing: null,
        obj: { a: [1, 'x'] },
        flag: true,
        num: 1.5,
      },
    ]);
  });
});
