// The pure logic of the JMESPath, JSON Schema and regex pages, in Node: where a JSON path is written
// in a text, the tokens that colour JSON, the caret of a JMESPath error, and matches cut from code-point offsets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { caretWindow, errorPositionOf, unitIndexOf } from '../../web/src/tools/jmespath-caret.js';
import { locateJsonPath, pointerOf, tokenizeJson, type JsonPath } from '../../web/src/tools/json-schema-json.js';
import { segmentsOf, toggleFlag } from '../../web/src/tools/regex-matches.js';

const at = (text: string, path: JsonPath) => {
  const range = locateJsonPath(text, path);
  return range === null ? null : text.slice(range.from, range.to);
};

describe('locateJsonPath', () => {
  const text = `{
  "name": "Ada",
  "age": "thirty",
  "tags": [1, {"k": [true, null]}, "x"],
  "a/b": {"~": -1.5e3},
  "esc\\"aped": "v",
  "": 0
}`;

  it('finds the value at each path, the root included', () => {
    assert.equal(at(text, []), text);
    assert.equal(at(text, ['age']), '"thirty"');
    assert.equal(at(text, ['tags']), '[1, {"k": [true, null]}, "x"]');
    assert.equal(at(text, ['tags', 0]), '1');
    assert.equal(at(text, ['tags', 1, 'k', 1]), 'null');
    assert.equal(at(text, ['tags', 2]), '"x"');
    assert.equal(at(text, ['a/b', '~']), '-1.5e3');
    assert.equal(at(text, ['esc"aped']), '"v"');
    assert.equal(at(text, ['']), '0');
  });

  it('answers null for a path the text lacks, and for text that is not JSON', () => {
    assert.equal(at(text, ['missing']), null);
    assert.equal(at(text, ['tags', 3]), null);
    assert.equal(at(text, ['age', 'x']), null);
    assert.equal(at('{"a": [1,', ['a', 0]), null);
    assert.equal(at('', []), null);
    assert.equal(at('{"a" 1}', ['a']), null);
  });

  it('takes the last of repeated keys, as JSON.parse does', () => {
    const repeated = '{"a": 1, "b": 2, "a": "last"}';
    const range = locateJsonPath(repeated, ['a'])!;
    assert.deepEqual(range, { from: 22, to: 28 });
  });

  it('counts UTF-16 units, as the editor does', () => {
    const emoji = '{"😀": "é😀", "n": 1}';
    assert.equal(at(emoji, ['n']), '1');
    assert.equal(locateJsonPath(emoji, ['n'])!.from, emoji.indexOf('1'));
  });
});

describe('tokenizeJson and pointerOf', () => {
  it('covers the whole text with properties, strings, numbers, keywords and punctuation', () => {
    const text = JSON.stringify({ a: 'x', b: [1.5, true, null], 'c"': false }, null, 2);
    const tokens = tokenizeJson(text);
    assert.equal(tokens.map((t) => text.slice(t.from, t.to)).join(''), text);
    const kinds = tokens.filter((t) => t.kind !== 'space').map((t) => `${t.kind}:${text.slice(t.from, t.to)}`);
    assert.deepEqual(kinds, [
      'punctuation:{',
      'property:"a"',
      'punctuation::',
      'string:"x"',
      'punctuation:,',
      'property:"b"',
      'punctuation::',
      'punctuation:[',
      'number:1.5',
      'punctuation:,',
      'keyword:true',
      'punctuation:,',
      'keyword:null',
      'punctuation:]',
      'punctuation:,',
      'property:"c\\""',
      'punctuation::',
      'keyword:false',
      'punctuation:}',
    ]);
  });

  it('writes paths as JSON Pointers', () => {
    assert.equal(pointerOf([]), '');
    assert.equal(pointerOf(['a/b', 0, 'm~n']), '/a~1b/0/m~0n');
  });
});

describe('JMESPath error caret', () => {
  it('reads the last position a detail names', () => {
    assert.equal(errorPositionOf('Invalid JMESPath expression: Syntax error: expected Rbracket, got: EOF (at position 23).'), 23);
    assert.equal(errorPositionOf('Invalid JMESPath expression: Invalid type: abs() takes a number.'), null);
  });

  it('turns code points into string indices', () => {
    assert.equal(unitIndexOf('😀a', 1), 2);
    assert.equal(unitIndexOf('ab', 5), 2);
  });

  it('puts the caret under the character, cutting long expressions around it', () => {
    assert.deepEqual(caretWindow('a ~ b', 2), { before: 'a ', at: '~', after: ' b', column: 2 });
    assert.deepEqual(caretWindow('people[', 7), { before: 'people[', at: ' ', after: '', column: 7 });
    assert.deepEqual(caretWindow('😀 ~', 2), { before: '😀 ', at: '~', after: '', column: 2 });
    const long = 'a'.repeat(100) + '~' + 'b'.repeat(100);
    const window = caretWindow(long, 100, 20);
    assert.equal(window.at, '~');
    assert.equal(window.before, '…' + 'a'.repeat(10));
    assert.equal(window.after, 'b'.repeat(9) + '…');
    assert.equal(window.column, 11);
  });
});

describe('regex matches and flags', () => {
  it('cuts the text at code-point offsets, keeping empty matches', () => {
    assert.deepEqual(
      segmentsOf('Mail ana@x.io or 😀 bo@t.org', [
        { start: 5, end: 13 },
        { start: 19, end: 27 },
      ]),
      [
        { text: 'Mail ', match: null },
        { text: 'ana@x.io', match: 0 },
        { text: ' or 😀 ', match: null },
        { text: 'bo@t.org', match: 1 },
      ],
    );
    assert.deepEqual(
      segmentsOf('😀ab', [
        { start: 0, end: 0 },
        { start: 1, end: 1 },
        { start: 3, end: 3 },
      ]),
      [
        { text: '', match: 0 },
        { text: '😀', match: null },
        { text: '', match: 1 },
        { text: 'ab', match: null },
        { text: '', match: 2 },
      ],
    );
    assert.deepEqual(
      segmentsOf('abc', [
        { start: 0, end: 2 },
        { start: 1, end: 3 },
      ]),
      [
        { text: 'ab', match: 0 },
        { text: 'c', match: null },
      ],
    );
  });

  it('toggles a flag, keeping the toggles order and other letters', () => {
    assert.equal(toggleFlag('', 'i'), 'i');
    assert.equal(toggleFlag('i', 'm'), 'im');
    assert.equal(toggleFlag('mi', 'i'), 'm');
    assert.equal(toggleFlag('gx', 'i'), 'ixg');
  });
});
