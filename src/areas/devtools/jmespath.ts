import { compile } from '@jmespath-community/jmespath';
import { DevutilError } from '../../errors.js';
import { valueDepth } from '../../lib/json-depth.js';
import { isWellFormed } from '../../lib/well-formed.js';
import { BudgetExceeded } from './jmespath-budget.js';
export { MAX_STEPS, MAX_STRING_CHARS } from './jmespath-budget.js';
import { ExpressionReference, listFunctionNames, SafeInterpreter } from './jmespath-interpreter.js';
export { MAX_PAD_WIDTH } from './jmespath-interpreter.js';
import {
  functionCallPositions,
  JmespathLexError,
  locateParseError,
  rewriteRawStrings,
  scanExpression,
  separateMinusSigns,
} from './jmespath-syntax.js';

export type JmespathErrorType =
  'syntax' | 'lexer' | 'unknown_function' | 'invalid_type' | 'invalid_arity' | 'invalid_value' | 'undefined_variable';

export interface TransformOptions {
  /** JMESPath community "legacy literals": `` `foo` `` (not JSON) is the string "foo". */
  legacyLiterals?: boolean;
}

/** Parsed expressions kept (LRU): a repeated expression is parsed once. */
export const COMPILE_CACHE_SIZE = 1000;
/** Characters of the expressions kept parsed, in all (per literal mode): a tree's memory grows with its expression's length. */
export const COMPILE_CACHE_CHARS = 500_000;
/** Nodes (values) a result may hold once expanded; `[@,@,@]` chains can grow exponentially. */
export const MAX_RESULT_NODES = 2_000_000;
/**
 * Bytes of JSON text a result may take once serialised (32 MiB, 16 times the largest body):
 * `[@,@,@,…]` over a 1 MB string, or a projection repeating it, would otherwise answer hundreds
 * of megabytes.
 */
export const MAX_RESULT_BYTES = 32 * 1024 * 1024;

/** Characters JSON writes escaped (as `\n` or `\u0001`): up to 6 bytes each. */
const ESCAPED = /[\x00-\x1f"\\]/g;
/** A string whose JSON text is its length plus the quotes: printable ASCII without `"` and `\`. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A surrogate without its pair: JSON writes it as `\udXXX` (6 bytes), where UTF-8 counts U+FFFD (3). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The bytes of a string's JSON text, at most 5 over per escaped character (UTF-8 for the rest). */
function jsonStringBytes(text: string): number {
  if (PLAIN.test(text)) return text.length + 2;
  const lone = isWellFormed(text) ? 0 : (text.match(LONE_SURROGATE)?.length ?? 0);
  return Buffer.byteLength(text, 'utf8') + 2 + 5 * (text.match(ESCAPED)?.length ?? 0) + 3 * lone;
}

/** The bytes of a primitive's JSON text (a string's, a number's, true/false/null). */
function jsonPrimitiveBytes(value: unknown): number {
  if (typeof value === 'string') return jsonStringBytes(value);
  if (typeof value === 'number') return String(value).length;
  return value === false ? 5 : 4;
}

/**
 * At least the bytes of a primitive's JSON text, without reading a string: 6 per UTF-16 unit
 * (`\u001f`; a character UTF-8 writes in 3 or 4 bytes takes 1 or 2 units) and the quotes; 24 for
 * a number (`-1.7976931348623157e+308`); 5 for true/false/null.
 */
function jsonPrimitiveBytesAtMost(value: unknown): number {
  if (typeof value === 'string') return 6 * value.length + 2;
  return typeof value === 'number' ? 24 : 5;
}

/** Runtime error message → CONTRACT §3.2 `error_type`; first matching row wins. */
const RUNTIME_ERROR_TYPES: Array<[RegExp, JmespathErrorType]> = [
  [/unknown function/i, 'unknown_function'],
  [/arity/i, 'invalid_arity'],
  [/invalid.type|not-a-number/i, 'invalid_type'],
  [/invalid.value/i, 'invalid_value'],
  [/undefined variable/i, 'undefined_variable'],
];

type Ast = Parameters<SafeInterpreter['search']>[0];
/** An LRU of parsed expressions by text, and the characters of its keys. */
interface CompileCache {
  entries: Map<string, Ast>;
  chars: number;
}
const interpreter = new SafeInterpreter();
const knownFunctions = listFunctionNames(interpreter);
/** Parsed expressions by text, one LRU per literal mode. */
const caches: Record<'standard' | 'legacy', CompileCache> = {
  standard: { entries: new Map(), chars: 0 },
  legacy: { entries: new Map(), chars: 0 },
};
/**
 * Expressions kept parsed and their characters, per literal mode (for tests).
 *
 * @example
 *   expressionCacheStats().standard // → { entries: 12, chars: 340 }
 */
export function expressionCacheStats(): Record<'standard' | 'legacy', { entries: number; chars: number }> {
  const stats = ({ entries, chars }: CompileCache) => ({ entries: entries.size, chars });
  return { standard: stats(caches.standard), legacy: stats(caches.legacy) };
}

/** The tree set last into its cache (the newest there). */
let newest: Ast | undefined;

/** The library's runtime messages that are not sentences, in words. */
const PLAIN_MESSAGES: Record<string, string> = {
  'not-a-number': 'Invalid type: an arithmetic operand is not a number',
};

function invalidExpression(expression: string, errorType: JmespathErrorType, text: string, unitOffset?: number): DevutilError {
  const message = (PLAIN_MESSAGES[text] ?? text).replace(/\.$/, '');
  // Offsets are found in UTF-16 units; the response counts characters (code points), as everywhere else.
  const position = unitOffset === undefined ? undefined : Array.from(expression.slice(0, unitOffset)).length;
  const error = position === undefined ? message : `${message} (at position ${position})`;
  return new DevutilError('invalid_expression', `Invalid JMESPath expression: ${error}.`, {
    extra: { error, error_type: errorType, expression, ...(position === undefined ? {} : { position }) },
  });
}

function tooDeep(what: string): DevutilError {
  return new DevutilError('validation_error', `The ${what} nests too deeply to evaluate.`, {
    errors: [{ path: what, message: 'nests too deeply' }],
  });
}

function tooLarge(why = 'it produces a result that is too large'): DevutilError {
  return new DevutilError('validation_error', `The expression cannot be evaluated: ${why}.`, {
    errors: [{ path: 'expression', message: why }],
  });
}

/** Whether a literal's value holds a number JSON text read as Infinity (`1e400`); iterative, as literals may nest deeply. */
function holdsNonFinite(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number' && !Number.isFinite(v)) return true;
    if (v !== null && typeof v === 'object') stack.push(...Object.values(v));
  }
  return false;
}

/**
 * Refuse calls to functions that do not exist at compile time, as the specification requires, and
 * JSON literals holding a number beyond a double (JSON text would give null for it).
 */
function checkFunctionNames(node: unknown, expression: string): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach((n) => checkFunctionNames(n, expression));
  const n = node as { type?: string; name?: string; value?: unknown };
  if (n.type === 'Literal') {
    if (holdsNonFinite(n.value))
      throw invalidExpression(expression, 'syntax', 'A JSON literal holds a number beyond a double (such as 1e400)');
    return;
  }
  if (n.type === 'Function' && !knownFunctions.has(n.name!)) {
    // Every call of an unknown name fails: the first one is where.
    throw invalidExpression(expression, 'unknown_function', `Unknown function: ${n.name}()`, functionCallPositions(expression, n.name!)[0]);
  }
  for (const value of Object.values(n)) if (typeof value === 'object') checkFunctionNames(value, expression);
}

function compileExpression(expression: string, options: TransformOptions): Ast {
  const cache = options.legacyLiterals ? caches.legacy : caches.standard;
  const { entries } = cache;
  const cached = entries.get(expression);
  if (cached) {
    // Moved to the newest place, unless it is there already (an expression repeated request after request).
    if (cached !== newest) {
      entries.delete(expression);
      entries.set(expression, cached);
      newest = cached;
    }
    return cached;
  }
  const libOptions = { enable_legacy_literals: options.legacyLiterals ?? false };
  let ast: Ast;
  try {
    const source = rewriteRawStrings(separateMinusSigns(expression), scanExpression(expression));
    ast = compile(source, libOptions) as Ast;
    checkFunctionNames(ast, expression);
  } catch (err) {
    if (err instanceof DevutilError) throw err;
    if (err instanceof RangeError) throw tooDeep('expression');
    const e = err as Error;
    if (e instanceof JmespathLexError) throw invalidExpression(expression, 'lexer', `Lexer error: ${e.message}`, e.position);
    const position = locateParseError(separateMinusSigns(expression), libOptions);
    throw invalidExpression(expression, e.name === 'LexerError' ? 'lexer' : 'syntax', e.message, position);
  }
  entries.set(expression, ast);
  cache.chars += expression.length;
  newest = ast;
  while (entries.size > COMPILE_CACHE_SIZE || cache.chars > COMPILE_CACHE_CHARS) {
    const oldest = entries.keys().next().value!;
    entries.delete(oldest);
    cache.chars -= oldest.length;
  }
  return ast;
}

/**
 * Where a runtime error happened, when its message names a function (`abs() takes 1 argument`)
 * called only once in the expression; undefined when that cannot be told for sure.
 */
function runtimeErrorPosition(expression: string, message: string): number | undefined {
  const name = /\b([A-Za-z_]\w*)\(\)/.exec(message)?.[1];
  const calls = name === undefined ? [] : functionCallPositions(expression, name);
  return calls.length === 1 ? calls[0] : undefined;
}

/** A result past MAX_RESULT_NODES values or MAX_RESULT_BYTES of JSON: 422 on `expression`. */
function resultTooLarge(what: string): DevutilError {
  return new DevutilError('validation_error', `The result would hold more than ${what}.`, {
    errors: [{ path: 'expression', message: `result must hold at most ${what}` }],
  });
}

/**
 * Count the values and the bytes of JSON text of a result as serialisation would expand them
 * (a value repeated counts each time), stopping at either bound. A string is scanned each time it
 * appears, and every scan adds at least its length: the scanning stops within the byte bound too.
 */
function checkResultSize(result: unknown, expression: string): void {
  // Bounds first (no string is read): the exact count only when they could pass the limit.
  if (measureResult(result, expression, false)) measureResult(result, expression, true);
}

/**
 * Walk a result as {@link checkResultSize} describes, counting its strings, numbers and literals
 * exactly or by their bounds. Throws past MAX_RESULT_NODES values, or past MAX_RESULT_BYTES when
 * exact; returns whether the bytes passed MAX_RESULT_BYTES.
 */
function measureResult(result: unknown, expression: string, exact: boolean): boolean {
  const primitiveBytes = exact ? jsonPrimitiveBytes : jsonPrimitiveBytesAtMost;
  const tooMany = () => {
    if (exact) throw resultTooLarge(`${MAX_RESULT_BYTES} bytes of JSON`);
    return true;
  };
  // Only containers go on the stack; their primitive members are counted where they stand.
  const stack: object[] = [];
  let count = 1;
  let bytes = result !== null && typeof result === 'object' ? 0 : primitiveBytes(result);
  if (result !== null && typeof result === 'object') stack.push(result);
  while (stack.length > 0) {
    const value = stack.pop()!;
    // `&a`, `[&a]`, `not_null(&a)`: an expression reference has no JSON form.
    if (value instanceof ExpressionReference) {
      throw invalidExpression(
        expression,
        'invalid_type',
        'Invalid type: an expression reference (&…) is not a JSON value; it is only an argument of functions such as sort_by or map',
      );
    }
    let children: unknown[];
    if (Array.isArray(value)) children = value;
    else {
      const keys = Object.keys(value);
      // Each key with its quotes and colon.
      for (let i = 0; i < keys.length; i++) bytes += primitiveBytes(keys[i]) + 1;
      children = Object.values(value);
    }
    count += children.length;
    if (count > MAX_RESULT_NODES) throw resultTooLarge(`${MAX_RESULT_NODES} values`);
    // Brackets, and a comma between members.
    bytes += 1 + children.length;
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (child !== null && typeof child === 'object') stack.push(child);
      else bytes += primitiveBytes(child);
      if (bytes > MAX_RESULT_BYTES) return tooMany();
    }
  }
  return bytes > MAX_RESULT_BYTES && tooMany();
}

/**
 * Evaluate a JMESPath expression (official specification plus the JMESPath Community
 * extensions: `let`, arithmetic, ternary, string functions, `group_by`, root `$`).
 * Throws `invalid_expression` (400) with `error`, `error_type` and `expression` for a bad
 * expression or a runtime type/arity/value error.
 *
 * @example
 *   transformJson({ people: [{ age: 30 }, { age: 40 }] }, 'people[?age > `35`].age') // → [40]
 */
export function transformJson(data: unknown, expression: string, options: TransformOptions = {}): unknown {
  const ast = compileExpression(expression, options);
  let result: unknown;
  try {
    result = interpreter.search(ast, data as never);
  } catch (err) {
    // The stack ran out walking the data and the expression's tree together: the deeper of the two is named.
    if (err instanceof RangeError)
      throw /call stack/.test(err.message) ? tooDeep(valueDepth(ast) > valueDepth(data) ? 'expression' : 'data') : tooLarge();
    if (err instanceof BudgetExceeded) throw tooLarge(err.message);
    const message = (err as Error).message;
    const row = RUNTIME_ERROR_TYPES.find(([pattern]) => pattern.test(message));
    throw invalidExpression(expression, row ? row[1] : 'invalid_value', message, runtimeErrorPosition(expression, message));
  }
  checkResultSize(result, expression);
  return result ?? null;
}
