// JSON text read with its offsets, without building values: the tokens that colour a JSON answer,
// and the text range of the value an instance path names (a validation error's field in the data).

/** A path into a JSON value as the API writes it: object keys as strings, array indices as integers. */
export type JsonPath = (string | number)[];

/** A range of the text, `from` inclusive and `to` exclusive, in UTF-16 units (string indices). */
export interface TextRange {
  from: number;
  to: number;
}

export type JsonTokenKind = 'property' | 'string' | 'number' | 'keyword' | 'punctuation' | 'space';

export interface JsonToken extends TextRange {
  kind: JsonTokenKind;
}

const SPACE = /[ \t\n\r]/;

/** The end of the string literal opening at `at` (just past its closing quote), or -1 when it never closes. */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
    else if (text[i] === '\n') return -1;
  }
  return -1;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && SPACE.test(text[at])) at++;
  return at;
}

/**
 * The tokens of a JSON text, covering it entirely; what is not JSON is punctuation, so any text can be shown.
 *
 * @example
 *   tokenizeJson('{"a": 1}').map((t) => t.kind) // ['punctuation', 'property', 'punctuation', 'space', 'number', 'punctuation']
 */
export function tokenizeJson(text: string): JsonToken[] {
  const tokens: JsonToken[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    let end: number;
    let kind: JsonTokenKind;
    if (SPACE.test(c)) {
      end = skipSpace(text, i);
      kind = 'space';
    } else if (c === '"') {
      end = stringEnd(text, i);
      if (end === -1) end = text.length;
      kind = text[skipSpace(text, end)] === ':' ? 'property' : 'string';
    } else if (/[-0-9]/.test(c)) {
      end = i + (/^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/.exec(text.slice(i, i + 400))?.[0].length || 1);
      kind = 'number';
    } else if (/^(?:true|false|null)/.test(text.slice(i, i + 5))) {
      end = i + (text[i] === 'f' ? 5 : 4);
      kind = 'keyword';
    } else {
      end = i + 1;
      kind = 'punctuation';
    }
    tokens.push({ kind, from: i, to: end });
    i = end;
  }
  return tokens;
}

class NotJson extends Error {}

/** The end of the JSON value starting at `at` (no leading space), or NotJson. */
function valueEnd(text: string, at: number): number {
  const c = text[at];
  if (c === '"') {
    const end = stringEnd(text, at);
    if (end === -1) throw new NotJson();
    return end;
  }
  if (c === '{' || c === '[') {
    const close = c === '{' ? '}' : ']';
    let i = skipSpace(text, at + 1);
    if (text[i] === close) return i + 1;
    for (;;) {
      if (c === '{') {
        if (text[i] !== '"') throw new NotJson();
        i = skipSpace(text, valueEnd(text, i));
        if (text[i] !== ':') throw new NotJson();
        i = skipSpace(text, i + 1);
      }
      i = skipSpace(text, valueEnd(text, i));
      if (text[i] === close) return i + 1;
      if (text[i] !== ',') throw new NotJson();
      i = skipSpace(text, i + 1);
    }
  }
  const literal = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null)/.exec(text.slice(at, at + 400));
  if (literal === null) throw new NotJson();
  return at + literal[0].length;
}

/** The start of the member value or element that `segment` names in the container opening at `at`, or null. */
function childStart(text: string, at: number, segment: string | number): number | null {
  const open = text[at];
  if (open !== '{' && open !== '[') return null;
  const close = open === '{' ? '}' : ']';
  let i = skipSpace(text, at + 1);
  if (text[i] === close) return null;
  let found: number | null = null;
  for (let index = 0; ; index++) {
    let matches = open === '[' && index === Number(segment);
    if (open === '{') {
      const keyEnd = valueEnd(text, i);
      // A repeated key: JSON.parse, and so the validator, keeps the last one.
      matches = (JSON.parse(text.slice(i, keyEnd)) as string) === String(segment);
      i = skipSpace(text, keyEnd);
      if (text[i] !== ':') throw new NotJson();
      i = skipSpace(text, i + 1);
    }
    if (matches) {
      found = i;
      if (open === '[') return found;
    }
    i = skipSpace(text, valueEnd(text, i));
    if (text[i] === close) return found;
    if (text[i] !== ',') throw new NotJson();
    i = skipSpace(text, i + 1);
  }
}

/**
 * Where the value at `path` is written in the JSON `text`, or null when the text is not JSON or has no such value.
 *
 * @example
 *   const text = '{"name": "Ada", "tags": [1, "x"]}';
 *   const { from, to } = locateJsonPath(text, ['tags', 1])!;
 *   text.slice(from, to) // '"x"'
 */
export function locateJsonPath(text: string, path: JsonPath): TextRange | null {
  try {
    let at = skipSpace(text, 0);
    if (at >= text.length) return null;
    for (const segment of path) {
      const next = childStart(text, at, segment);
      if (next === null) return null;
      at = next;
    }
    return { from: at, to: valueEnd(text, at) };
  } catch (err) {
    if (err instanceof NotJson || err instanceof SyntaxError) return null;
    throw err;
  }
}

/**
 * A path as a JSON Pointer (RFC 6901): `''` is the root.
 *
 * @example
 *   pointerOf(['a/b', 0]) // '/a~1b/0'
 */
export function pointerOf(path: JsonPath): string {
  return path.map((segment) => '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
