import { errorSchema } from '../../http/schemas.js';
import {
  COMPILE_CACHE_CHARS,
  COMPILE_CACHE_SIZE,
  MAX_PAD_WIDTH,
  MAX_RESULT_BYTES,
  MAX_RESULT_NODES,
  MAX_STEPS,
  MAX_STRING_CHARS,
} from './jmespath.js';

/** Longest expression accepted (characters). */
export const MAX_EXPRESSION_LENGTH = 10_000;

/** Request body of `POST /v1/json-transform`. */
export interface JsonTransformBody {
  data: unknown;
  expression: string;
  legacy_literals: boolean;
}

/** `POST /v1/json-transform`: the language, its extensions, its errors and its limits. */
export const jsonTransformSchema = {
  operationId: 'transformJson',
  summary: 'Query and reshape JSON with JMESPath',
  description: [
    'Evaluates a JMESPath expression against `data`: the full official specification (every case of the official',
    'compliance suite passes) plus the JMESPath Community extensions: `let $x = … in …`, arithmetic (`+ - * / % //`),',
    'the ternary `a ? b : c`, the root node `$`, `group_by`, and the string functions (`find_first`, `find_last`,',
    '`lower`, `upper`, `pad_left`, `pad_right`, `replace`, `split`, `trim*`), `items`, `from_items`, `zip`.',
    "Strings are sequences of code points everywhere: offsets, widths and `split(s, '')` never cut an emoji in half.",
    "`replace` with a count replaces that many occurrences from the left, as Python's `str.replace` (an empty `old` matches",
    'at every character boundary); `group_by` leaves out elements whose key is null; `to_number` reads only strings in the',
    'JSON number grammar (else null); dividing by zero (`/`, `//`, `%`) and a result beyond a double are errors; `--a` is',
    'two minus signs.',
    "Raw string literals follow the official JEP 12 (only `\\'` is an escape: `'\\\\'` is two backslashes).",
    '`legacy_literals: true` accepts non-JSON backtick literals (`` `foo` `` is the string "foo") as early JMESPath did.',
    'An invalid expression, or a runtime type/arity/value error, answers 400 `invalid_expression` with `error`',
    '(the message, with `(at position N)`, a 0-based character offset, for syntax and lexer errors, an unknown function, and',
    'a type or arity error of a function the expression calls once; a function called several times is named in the message), `error_type`',
    '(`syntax`, `lexer`, `unknown_function`, `invalid_type`, `invalid_arity`, `invalid_value`, and',
    '`undefined_variable` for a `$name` no `let` binds), `expression` and `position` (whenever the message has one).',
    'Object keys such as `__proto__` or `constructor` are ordinary keys. Limits: expression up to',
    `${MAX_EXPRESSION_LENGTH} characters; a result of at most ${MAX_RESULT_NODES} values and ${MAX_RESULT_BYTES} bytes of JSON once expanded, a value repeated counting each time (else 422);`,
    `pad widths up to ${MAX_PAD_WIDTH}; at most ${MAX_STEPS} evaluation steps; strings built by \`to_string\`, \`join\` and`,
    `\`replace\` up to ${MAX_STRING_CHARS} characters; an expression or data nesting too deeply to evaluate is a 422.`,
    `The last ${COMPILE_CACHE_SIZE} distinct expressions (per literal mode, at most ${COMPILE_CACHE_CHARS} characters of them in all) are kept compiled.`,
  ].join(' '),
  tags: ['devtools'],
  body: {
    type: 'object',
    required: ['data', 'expression'],
    additionalProperties: false,
    properties: {
      data: { description: 'Any JSON value to query.' },
      expression: {
        type: 'string',
        maxLength: MAX_EXPRESSION_LENGTH,
        description: 'JMESPath expression (an empty one is a syntax error: 400).',
      },
      legacy_literals: { type: 'boolean', default: false, description: 'Accept non-JSON backtick literals as strings.' },
    },
    examples: [
      {
        data: {
          people: [
            { name: 'Ada', age: 36 },
            { name: 'Alan', age: 41 },
          ],
        },
        expression: 'people[?age > `40`].name',
      },
    ],
  },
  response: {
    200: {
      type: 'object',
      required: ['result', 'expression'],
      properties: {
        result: { description: 'The query output: any JSON value, null when nothing matched.' },
        expression: { type: 'string', description: 'The expression, echoed.' },
      },
      examples: [{ result: ['Alan'], expression: 'people[?age > `40`].name' }],
    },
    400: invalidExpressionResponse(),
  },
};

/** The 400 of CONTRACT §3.2: the error body plus the JMESPath error's own fields. */
function invalidExpressionResponse() {
  const base = errorSchema(['invalid_expression']);
  return {
    ...base,
    properties: {
      ...base.properties,
      error: { type: 'string', description: 'The JMESPath error message, with its position when known.' },
      error_type: {
        type: 'string',
        enum: ['syntax', 'lexer', 'unknown_function', 'invalid_type', 'invalid_arity', 'invalid_value', 'undefined_variable'],
      },
      expression: { type: 'string', description: 'The expression, echoed.' },
      position: { type: 'integer', description: 'Character offset of the error in the expression, when certain.' },
    },
  };
}
