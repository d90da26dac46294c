import { isUtf8 } from 'node:buffer';
/** A problem found in a mail-authentication record: a stable `code` and a sentence. */
export interface RecordWarning {
  code: string;
  message: string;
}

/** A parsed `tag=value; tag=value` list (DKIM RFC 6376 §3.2, DMARC RFC 7489 §6.4). */
export interface TagList {
  /** Tag name → value; a prototype-less object, so a tag named `__proto__` is plain data. */
  tags: Record<string, string>;
  /** Tag names in the order they appear. */
  order: string[];
  warnings: RecordWarning[];
}

/**
 * Parse a tag-value list. Names are kept as written (DKIM tags are case-sensitive); a repeated
 * tag keeps its first value and is reported (`duplicate_tag`), a part without `=` too (`malformed_tag`).
 *
 * @example
 *   parseTagList('v=DMARC1; p=reject; rua=mailto:d@example.com').tags.p; // 'reject'
 */
export function parseTagList(value: string): TagList {
  const tags = Object.create(null) as Record<string, string>;
  const order: string[] = [];
  const warnings: RecordWarning[] = [];
  for (const part of value.split(';')) {
    const text = part.trim();
    if (text === '') continue;
    const eq = text.indexOf('=');
    const name = eq > 0 ? text.slice(0, eq).trim() : '';
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
      warnings.push({ code: 'malformed_tag', message: `"${text}" is not a tag=value pair.` });
      continue;
    }
    if (name in tags) {
      warnings.push({ code: 'duplicate_tag', message: `Tag "${name}" appears more than once; the first value is used.` });
      continue;
    }
    tags[name] = text.slice(eq + 1).trim();
    order.push(name);
  }
  return { tags, order, warnings };
}

/**
 * The joined value of each TXT record. node gives each record as its character-strings with one
 * character per byte (Latin-1); the joined bytes are read as UTF-8 when they are valid UTF-8 (a
 * character may straddle two character-strings), else left one character per byte.
 *
 * @example
 *   joinTxt([['caf\u00c3', '\u00a9']]) // ['café']
 */
export function joinTxt(answers: unknown[]): string[] {
  return (answers as string[][]).map((chunks) => {
    const text = chunks.join('');
    if (!/[\x80-\xff]/.test(text)) return text;
    const bytes = Buffer.from(text, 'latin1');
    return isUtf8(bytes) ? bytes.toString('utf8') : text;
  });
}
