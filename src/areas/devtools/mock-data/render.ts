/** Output formats of `/v1/mock-data`. */
export type OutputFormat = 'json' | 'csv' | 'sql' | 'xml';

type Renderer = (names: string[], table: unknown[][], tableName: string) => string;

/** Objects and arrays (from `enum`/`constant`) become their JSON text in the text formats. */
function toText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** RFC 4180 field: quoted (quotes doubled) when it holds a quote, comma, CR or LF. */
function quoteCsv(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = toText(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** SQL identifier in double quotes, inner quotes doubled. */
function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Standard SQL literal: NULL, bare numbers, TRUE/FALSE, '...' with quotes doubled. */
function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return `'${toText(value).replace(/'/g, "''")}'`;
}

// Characters XML 1.0 cannot carry at all, not even as references: replaced by U+FFFD.
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;', '\n': '&#10;', '\t': '&#9;' };
const XML_NAME = /^[\p{L}_][\p{L}\p{N}._-]*$/u;

function escapeXml(text: string): string {
  return text.replace(XML_FORBIDDEN, '\uFFFD').replace(/[&<>"'\r]/g, (c) => XML_ESCAPES[c]);
}

/** An attribute value: also line feeds and tabs as references, which a parser would otherwise read as spaces (XML 1.0 §3.3.3). */
function escapeXmlAttribute(text: string): string {
  return escapeXml(text).replace(/[\n\t]/g, (c) => XML_ESCAPES[c]);
}

/** `<name>v</name>`, or `<field name="...">` when the field name is not a usable XML name. */
function xmlElement(name: string, value: unknown): string {
  const usable = XML_NAME.test(name) && !/^xml/i.test(name);
  const open = usable ? name : `field name="${escapeXmlAttribute(name)}"`;
  const close = usable ? name : 'field';
  if (value === null || value === undefined) return `<${open} null="true"/>`;
  return `<${open}>${escapeXml(toText(value))}</${close}>`;
}

const RENDERERS: Record<Exclude<OutputFormat, 'json'>, Renderer> = {
  csv: (names, table) => [names, ...table].map((row) => `${row.map(quoteCsv).join(',')}\r\n`).join(''),
  sql: (names, table, tableName) => {
    const head = `INSERT INTO ${quoteIdentifier(tableName)} (${names.map(quoteIdentifier).join(', ')}) VALUES (`;
    return table.map((row) => `${head}${row.map(sqlLiteral).join(', ')});\n`).join('');
  },
  xml: (names, table) => `<rows>${table.map((row) => `<row>${row.map((v, i) => xmlElement(names[i], v)).join('')}</row>`).join('')}</rows>`,
};

/**
 * Render generated rows. JSON gives row objects (null-prototype, so a field named `__proto__`
 * is plain data); CSV (header, CRLF), SQL (one INSERT per row) and XML give text.
 *
 * @example
 *   renderMockData('csv', ['id', 'note'], [[1, 'a,b']], 'mock_data') // 'id,note\r\n1,"a,b"\r\n'
 */
export function renderMockData(format: OutputFormat, names: string[], table: unknown[][], tableName: string): Record<string, unknown>[] | string {
  if (format !== 'json') return RENDERERS[format](names, table, tableName);
  return table.map((values) => {
    const row: Record<string, unknown> = Object.create(null);
    names.forEach((name, i) => {
      row[name] = values[i];
    });
    return row;
  });
}
