import { invalidField } from '../../errors.js';

/**
 * Ascii85, Adobe variant (PostScript/PDF): groups of 4 bytes become 5 characters `!`..`u`, an
 * all-zero group becomes `z`, a final partial group of n bytes becomes n+1 characters. The output
 * has no `<~ ~>` delimiters.
 *
 * @example
 *   encodeAscii85(Buffer.from('hello')) // 'BOu!rDZ'
 */
export function encodeAscii85(bytes: Buffer): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4) {
    const chunk = bytes.subarray(i, i + 4);
    const n = chunk.length;
    const padded = Buffer.alloc(4);
    chunk.copy(padded);
    let value = padded.readUInt32BE(0);
    if (value === 0 && n === 4) {
      out += 'z';
      continue;
    }
    const chars = new Array<string>(5);
    for (let k = 4; k >= 0; k--) {
      chars[k] = String.fromCharCode(33 + (value % 85));
      value = Math.floor(value / 85);
    }
    out += chars.slice(0, n + 1).join('');
  }
  return out;
}

/**
 * Decode Adobe Ascii85, with or without the `<~ ~>` delimiters; whitespace is ignored. `z` is
 * allowed only between groups; a final group of one character, a group above 2^32 - 1 or any
 * other character is a 422 on `field`.
 *
 * @example
 *   decodeAscii85('<~BOu!rDZ~>', 'data').toString() // 'hello'
 */
export function decodeAscii85(text: string, field: string): Buffer {
  let body = text.replace(/[\s\0]/g, '');
  if (body.startsWith('<~')) body = body.slice(2);
  if (body.endsWith('~>')) body = body.slice(0, -2);
  const out: number[] = [];
  let group: number[] = [];
  for (const char of body) {
    if (char === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const code = char.charCodeAt(0);
    if (code < 33 || code > 117) throw invalidField(field, `is not ascii85: unexpected character ${JSON.stringify(char)}`);
    group.push(code - 33);
    if (group.length === 5) {
      pushGroup(out, group, 4, field);
      group = [];
    }
  }
  if (group.length === 1) throw invalidField(field, 'is not ascii85: the last group has a single character');
  if (group.length > 0) {
    const n = group.length - 1;
    while (group.length < 5) group.push(84);
    pushGroup(out, group, n, field);
  }
  return Buffer.from(out);
}

function pushGroup(out: number[], digits: number[], take: number, field: string): void {
  const value = digits.reduce((acc, d) => acc * 85 + d, 0);
  if (value > 0xffffffff) throw invalidField(field, 'is not ascii85: a group exceeds 2^32 - 1');
  const bytes = [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
  out.push(...bytes.slice(0, take));
}
