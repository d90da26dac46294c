import { _, str, type Ajv, type CodeKeywordDefinition } from 'ajv';

/** Code points in `text`: a surrogate pair counts once, a lone surrogate once (as ajv counts). */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    count++;
  }
  return count;
}

/**
 * `maxLength`/`minLength` as ajv defines them (code points, the same errors), counting only when the
 * UTF-16 length leaves the answer open: a string has at most `length` and at least `length / 2`
 * code points. ajv counts every string in full, twice when a field has both limits.
 */
function lengthKeyword(keyword: 'maxLength' | 'minLength'): CodeKeywordDefinition {
  const more = keyword === 'maxLength';
  return {
    keyword,
    type: 'string',
    schemaType: 'number',
    // Where ajv keeps them: length errors come before `pattern` and `format` errors.
    before: 'pattern',
    error: {
      message: ({ schemaCode }) => str`must NOT have ${more ? 'more' : 'fewer'} than ${schemaCode} characters`,
      params: ({ schemaCode }) => _`{limit: ${schemaCode}}`,
    },
    code(cxt) {
      const { data, schemaCode, gen } = cxt;
      const count = gen.scopeValue('func', { ref: codePoints });
      cxt.fail$data(
        more
          ? _`${data}.length > ${schemaCode} && ${count}(${data}) > ${schemaCode}`
          : _`${data}.length < 2 * ${schemaCode} && ${count}(${data}) < ${schemaCode}`,
      );
    },
  };
}

/**
 * Replace ajv's string length keywords with {@link lengthKeyword}'s, through its public keyword API.
 *
 * @example
 *   const ajv = withCodePointLength(new Ajv({ allErrors: true }));
 *   ajv.validate({ type: 'string', maxLength: 1 }, '😀') // true: one code point
 */
export function withCodePointLength(ajv: Ajv): Ajv {
  for (const keyword of ['maxLength', 'minLength'] as const) ajv.removeKeyword(keyword).addKeyword(lengthKeyword(keyword));
  return ajv;
}
