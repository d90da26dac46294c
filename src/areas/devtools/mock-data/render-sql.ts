import { DevutilError, type FieldError } from '../../../errors.js';
import { toText, type ColumnKind } from './field-type.js';

/** SQL dialects of `/v1/mock-data` output. */
export const SQL_DIALECTS = ['sqlite', 'postgres', 'mysql'] as const;
export type SqlDialect = (typeof SQL_DIALECTS)[number];

/** How SQL output is written: the table, the dialect and whether a `CREATE TABLE` comes first. */
export interface SqlOptions {
  tableName: string;
  dialect: SqlDialect;
  createTable: boolean;
}

/** One output column: its name and the kind of its values. */
export interface Column {
  name: string;
  kind: ColumnKind;
}

interface Dialect {
  label: string;
  quoteIdentifier(name: string): string;
  /** Why `name` cannot be an identifier here, or undefined when it can. */
  refuseName(name: string): string | undefined;
  /** Key under which two names are the same column (SQLite and MySQL compare column names case-insensitively). */
  sameColumn(name: string): string;
  types: Record<ColumnKind, string>;
  /** A string literal; undefined when the dialect cannot hold the text (a NUL in PostgreSQL). */
  text(value: string): string | undefined;
  /** A datetime value as the dialect's column type reads it. */
  datetime(iso: string): string;
  tableSuffix: string;
}

const quoteStandard = (text: string) => `'${text.replace(/'/g, "''")}'`;
const quoteIn = (quote: string) => (name: string) => `${quote}${name.split(quote).join(quote + quote)}${quote}`;
const hasNul = (text: string) => text.includes('\u0000');

const DIALECTS: Record<SqlDialect, Dialect> = {
  sqlite: {
    label: 'SQLite',
    quoteIdentifier: quoteIn('"'),
    refuseName: () => undefined,
    sameColumn: (name) => name.replace(/[A-Z]/g, (c) => c.toLowerCase()),
    types: { integer: 'INTEGER', real: 'REAL', boolean: 'BOOLEAN', date: 'TEXT', datetime: 'TEXT', time: 'TEXT', text: 'TEXT' },
    // The sqlite3 CLI ends a statement at a NUL and drops a CR before a line feed, even inside a
    // literal: both are written as char() concatenated.
    text: (value) =>
      /[\u0000\r]/.test(value)
        ? value
            .split(/([\u0000\r]+)/)
            .filter((part) => part !== '')
            .map((part) => (/^[\u0000\r]/.test(part) ? `char(${[...part].map((c) => c.charCodeAt(0)).join(', ')})` : quoteStandard(part)))
            .join(' || ')
        : quoteStandard(value),
    datetime: (iso) => iso,
    tableSuffix: '',
  },
  postgres: {
    label: 'PostgreSQL',
    quoteIdentifier: quoteIn('"'),
    // Longer names are cut to 63 bytes by the server, which can make two columns one.
    refuseName: (name) => (Buffer.byteLength(name) > 63 ? 'is longer than 63 bytes, which PostgreSQL cuts identifiers to' : undefined),
    sameColumn: (name) => name,
    types: {
      integer: 'BIGINT',
      real: 'DOUBLE PRECISION',
      boolean: 'BOOLEAN',
      date: 'DATE',
      datetime: 'TIMESTAMPTZ',
      time: 'TIME',
      text: 'TEXT',
    },
    text: (value) => (hasNul(value) ? undefined : quoteStandard(value)),
    datetime: (iso) => iso,
    tableSuffix: '',
  },
  mysql: {
    label: 'MySQL',
    quoteIdentifier: quoteIn('`'),
    refuseName: (name) =>
      [...name].length > 64
        ? 'is longer than 64 characters, the MySQL limit'
        : name.endsWith(' ')
          ? 'ends with a space, which MySQL refuses in names'
          : undefined,
    sameColumn: (name) => name.toLowerCase(),
    types: { integer: 'BIGINT', real: 'DOUBLE', boolean: 'BOOLEAN', date: 'DATE', datetime: 'DATETIME(3)', time: 'TIME', text: 'TEXT' },
    // Backslash escapes as mysqldump writes them (the default sql_mode reads them); the mysql client
    // drops a CR before a line feed even inside a literal, so CR is escaped too.
    text: (value) => `'${value.replace(/[\\'\u0000\r\u001a]/g, (c) => MYSQL_ESCAPES[c]!)}'`,
    // DATETIME takes no zone suffix: the UTC instant, written as MySQL reads it.
    datetime: (iso) => iso.replace('T', ' ').replace(/Z$/, ''),
    tableSuffix: ' DEFAULT CHARSET=utf8mb4',
  },
};
const MYSQL_ESCAPES: Record<string, string> = { '\\': '\\\\', "'": "''", '\u0000': '\\0', '\r': '\\r', '\u001a': '\\Z' };

/**
 * Field names and `table_name` the dialect cannot use as they are: a NUL in any dialect, names
 * that are one column to the database, and each dialect's length rules. One entry per bad name.
 *
 * @example
 *   checkSqlNames('mysql', 'mock_data', ['id', 'ID']) // [{ path: 'fields[1].name', message: 'is the same MySQL column as fields[0].name (names are compared case-insensitively)' }]
 */
export function checkSqlNames(dialectName: SqlDialect, tableName: string, names: string[]): FieldError[] {
  const dialect = DIALECTS[dialectName];
  const problems: FieldError[] = [];
  const seen = new Map<string, number>();
  const refuse = (name: string) => (hasNul(name) ? 'holds a NUL character, which SQL names cannot' : dialect.refuseName(name));
  const tableProblem = refuse(tableName);
  if (tableProblem) problems.push({ path: 'table_name', message: tableProblem });
  names.forEach((name, i) => {
    const path = `fields[${i}].name`;
    const problem = refuse(name);
    const earlier = seen.get(dialect.sameColumn(name));
    if (names.indexOf(name) < i) return; // an exact repeat is refused with the fields themselves
    if (problem) problems.push({ path, message: problem });
    else if (earlier !== undefined)
      problems.push({
        path,
        message: `is the same ${dialect.label} column as fields[${earlier}].name (names are compared case-insensitively)`,
      });
    else seen.set(dialect.sameColumn(name), i);
  });
  return problems;
}

/**
 * The 422 for a value holding a NUL character that the output cannot carry.
 *
 * @example
 *   throw nulRefused(2, 'note', 0, 'PostgreSQL text cannot store', 'use dialect sqlite or mysql');
 */
export function nulRefused(index: number, name: string, row: number, cannot: string, instead: string): DevutilError {
  const message = `holds a NUL character (U+0000) in row ${row + 1}, which ${cannot}`;
  return new DevutilError('validation_error', `fields[${index}] ("${name}") ${message}; ${instead}.`, {
    errors: [{ path: `fields[${index}]`, message }],
  });
}

function literal(dialect: Dialect, value: unknown, kind: ColumnKind): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' && (kind === 'integer' || kind === 'real')) return String(value);
  if (typeof value === 'boolean' && kind === 'boolean') return value ? 'TRUE' : 'FALSE';
  const text = toText(value);
  return dialect.text(kind === 'datetime' ? dialect.datetime(text) : text);
}

/**
 * SQL text that runs as it is in the dialect's own client: a `CREATE TABLE` (unless
 * `createTable` is false) with a column type per kind, then one `INSERT` per row. Throws a 422
 * when a value holds a NUL the dialect cannot store (PostgreSQL).
 *
 * @example
 *   renderSql([{ name: 'id', kind: 'integer' }], [[1]], { tableName: 't', dialect: 'sqlite', createTable: true })
 *   // 'CREATE TABLE "t" ("id" INTEGER);\nINSERT INTO "t" ("id") VALUES (1);\n'
 */
export function renderSql(columns: Column[], table: unknown[][], options: SqlOptions): string {
  const dialect = DIALECTS[options.dialect];
  const tableName = dialect.quoteIdentifier(options.tableName);
  const names = columns.map((c) => dialect.quoteIdentifier(c.name));
  const create = options.createTable
    ? `CREATE TABLE ${tableName} (${columns.map((c, i) => `${names[i]} ${dialect.types[c.kind]}`).join(', ')})${dialect.tableSuffix};\n`
    : '';
  const head = `INSERT INTO ${tableName} (${names.join(', ')}) VALUES (`;
  const inserts = table.map((row, r) => {
    const values = row.map((value, i) => {
      const written = literal(dialect, value, columns[i]!.kind);
      if (written === undefined)
        throw nulRefused(
          i,
          columns[i]!.name,
          r,
          `${dialect.label} text cannot store`,
          'use dialect sqlite or mysql, or another output_format',
        );
      return written;
    });
    return `${head}${values.join(', ')});\n`;
  });
  return create + inserts.join('');
}
