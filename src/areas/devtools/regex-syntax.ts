import { invalidField } from '../../errors.js';
import { toUnicodeSource } from './regex-unicode.js';

/** A user pattern rewritten into what the JavaScript engine understands. */
export interface CompiledPattern {
  /** JavaScript `RegExp` source. */
  source: string;
  /** JavaScript flags, `g` included (every match is wanted). */
  flags: string;
}

/** Request flags → JavaScript flags; `x` is handled by rewriting, `g` is implied, `u` is (nearly) always on. */
const FLAG_TABLE: Record<string, string> = { i: 'i', m: 'm', s: 's', u: '', x: '', g: '' };

/** The flags the API accepts, for schemas and messages. */
export const ACCEPTED_FLAGS = Object.keys(FLAG_TABLE).join('');

const WHITESPACE = /\s/;
/** Python's absolute anchors (JavaScript would read `\A` and `\Z` as plain letters). */
const PYTHON_ANCHORS: Record<string, string> = { A: '(?<![\\s\\S])', Z: '(?![\\s\\S])' };

/**
 * Rewrite the Python-flavoured parts of a pattern into JavaScript syntax: `(?P<name>…)` becomes
 * `(?<name>…)`, `(?P=name)` becomes `\k<name>`, `(?#…)` comments vanish, `\A`/`\Z` become
 * start/end-of-text lookarounds, and in verbose mode
 * unescaped whitespace and `#` comments outside character classes are stripped (`\ ` and `\#`
 * stay literal). Escapes and character classes are copied untouched.
 *
 * @example
 *   rewritePattern('(?P<year>\\d{4}) # year', true) // → '(?<year>\\d{4})'
 */
export function rewritePattern(pattern: string, verbose: boolean): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return out + c; // the engine reports the dangling escape
      // `\ ` and `\#` are Python literals; JavaScript's unicode mode rejects them as escapes.
      if (WHITESPACE.test(next) || next === '#') out += next;
      else if (!inClass && Object.hasOwn(PYTHON_ANCHORS, next)) out += PYTHON_ANCHORS[next];
      else out += c + next;
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (verbose && WHITESPACE.test(c)) {
      continue;
    } else if (verbose && c === '#') {
      while (i + 1 < pattern.length && pattern[i + 1] !== '\n') i++;
    } else if (c === '(' && pattern.startsWith('?P<', i + 1)) {
      out += '(?<';
      i += 3;
    } else if (c === '(' && (pattern.startsWith('?P=', i + 1) || pattern.startsWith('?#', i + 1))) {
      const close = pattern.indexOf(')', i);
      if (close < 0) return out + pattern.slice(i); // unbalanced: let the engine say so
      if (pattern[i + 2] === 'P') {
        const name = pattern.slice(i + 4, close);
        // Python refuses a reference to a group the pattern does not name (JavaScript would read it as text).
        if (!new RegExp(`\\(\\?P?<${name.replace(/[^\w]/g, '\\$&')}>`).test(pattern)) {
          throw invalidField('pattern', `is not a valid regular expression: (?P=${name}) refers to no group named "${name}"`);
        }
        out += `\\k<${name}>`;
      }
      i = close;
    } else {
      out += c;
    }
  }
  return out;
}

/** No match may start or end between the two halves of a surrogate pair. */
const NOT_MID_PAIR = '(?!(?<=[\\uD800-\\uDBFF])[\\uDC00-\\uDFFF])';

/** V8's message names the rewritten source and its flags (`Invalid regular expression: /(/gu: Unterminated group`). */
const ENGINE_PREFIX = /^Invalid regular expression: \/[^]*\/[a-z]*: /;

/**
 * Why `new RegExp` refused a pattern, without the engine's echo of the source it was given.
 *
 * @example
 *   syntaxReason(new SyntaxError('Invalid regular expression: /(/gu: Unterminated group')) // 'Unterminated group'
 */
export function syntaxReason(err: unknown): string {
  return (err as Error).message.replace(ENGINE_PREFIX, '');
}

function checkSyntax(source: string, flags: string): void {
  try {
    new RegExp(source, flags);
  } catch (err) {
    throw invalidField('pattern', `is not a valid regular expression: ${syntaxReason(err)}`);
  }
}

/**
 * Turn the request's `pattern` and `flags` into a checked JavaScript regular expression that
 * matches by code point, as Python does, whatever the flags. A leading Python inline flag group
 * such as `(?ix)` is folded into the flags. The pattern runs in Unicode mode, rewritten by
 * {@link toUnicodeSource} so that legacy spellings such as `\-` or a lone `{` keep working. Only
 * without the `u` flag, a pattern Unicode mode still cannot read (`\p{Foo}`) runs in legacy mode,
 * its matches kept from starting or ending inside a surrogate pair. A pattern neither mode reads
 * (duplicate group names included) throws a 422 carrying the engine's message (the Unicode
 * engine's with `u`, else the legacy one's).
 *
 * @example
 *   compilePattern('(?P<n>a)\\-', 'gi') // → { source: '(?<n>a)-', flags: 'giu' }
 */
export function compilePattern(pattern: string, flags: string): CompiledPattern {
  const inline = /^\(\?([imsux]+)\)/.exec(pattern);
  const all = new Set([...flags, ...(inline?.[1] ?? '')]);
  for (const f of all) {
    if (!(f in FLAG_TABLE)) throw invalidField('flags', `has unknown flag "${f}"; accepted: ${ACCEPTED_FLAGS.split('').join(', ')}`);
  }
  const body = inline ? pattern.slice(inline[0].length) : pattern;
  const source = rewritePattern(body, all.has('x'));
  const legacyFlags = `g${[...all].map((f) => FLAG_TABLE[f]).join('')}`;
  const unicode = { source: toUnicodeSource(source), flags: `${legacyFlags}u` };
  if (all.has('u')) {
    checkSyntax(unicode.source, unicode.flags);
    return unicode;
  }
  try {
    new RegExp(unicode.source, unicode.flags);
    return unicode;
  } catch {
    checkSyntax(source, legacyFlags);
    return { source: `${NOT_MID_PAIR}(?:${source})${NOT_MID_PAIR}`, flags: legacyFlags };
  }
}
