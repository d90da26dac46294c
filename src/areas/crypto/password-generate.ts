import { randomInt } from 'node:crypto';
import { invalidField } from '../../errors.js';

/** Character classes of `generate-password`, one row each, in the order the query names them. */
export const PASSWORD_CLASSES = {
  uppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lowercase: 'abcdefghijklmnopqrstuvwxyz',
  digits: '0123456789',
  // Printable ASCII punctuation without quotes, backslash and backtick, so passwords paste into shells and JSON.
  symbols: '!#$%&()*+,-./:;<=>?@[]^_{|}~',
} as const;

export type PasswordClass = keyof typeof PASSWORD_CLASSES;

/** Characters `exclude_ambiguous` drops: ones easily misread for one another. */
export const AMBIGUOUS_CHARACTERS = 'Il1|O0o';

/** The query of `generate-password`, as the wire names it. */
export interface GeneratePasswordInput extends Record<PasswordClass, boolean> {
  length: number;
  count: number;
  exclude_ambiguous: boolean;
  exclude: string;
}

export interface GeneratedPasswords {
  passwords: string[];
  length: number;
  count: number;
  entropy_bits: number;
}

function buildClasses(options: GeneratePasswordInput): string[][] {
  const dropped = new Set([...options.exclude, ...(options.exclude_ambiguous ? AMBIGUOUS_CHARACTERS : '')]);
  const classes: string[][] = [];
  for (const name of Object.keys(PASSWORD_CLASSES) as PasswordClass[]) {
    if (!options[name]) continue;
    const chars = [...PASSWORD_CLASSES[name]].filter((c) => !dropped.has(c));
    if (chars.length === 0) throw invalidField('exclude', `removes every character of the enabled class "${name}"`);
    classes.push(chars);
  }
  if (classes.length === 0)
    throw invalidField('query', 'enables no character class: set at least one of uppercase, lowercase, digits, symbols');
  return classes;
}

/**
 * log2 of the number of passwords of `length` over the classes that contain every class at
 * least once (inclusion–exclusion), i.e. the exact entropy of a uniform draw from that set.
 */
function countEntropyBits(classSizes: number[], length: number): number {
  const total = classSizes.reduce((a, b) => a + b, 0);
  let count = 0n;
  for (let mask = 0; mask < 1 << classSizes.length; mask++) {
    const left = classSizes.reduce((n, size, i) => (mask & (1 << i) ? n - size : n), total);
    const sign = classSizes.filter((_, i) => mask & (1 << i)).length % 2 ? -1n : 1n;
    count += sign * BigInt(left) ** BigInt(length);
  }
  const bits = count.toString(2).length;
  const top = Number(count >> BigInt(Math.max(0, bits - 53)));
  return Math.round((Math.log2(top) + Math.max(0, bits - 53)) * 100) / 100;
}

/**
 * `GET /v1/auth/generate-password`: random passwords from a CSPRNG (`crypto.randomInt`, which has
 * no modulo bias). Each password is drawn uniformly from all strings over the enabled classes and
 * redrawn until every class appears, so it is uniform over exactly the passwords that qualify and
 * `entropy_bits` is exact.
 *
 * @example
 *   generatePasswords({ length: 16, count: 1, uppercase: true, lowercase: true, digits: true, symbols: false,
 *     exclude_ambiguous: true, exclude: '' })
 *   // { passwords: ['x7KpQ...'], length: 16, count: 1, entropy_bits: 91.6 }
 */
export function generatePasswords(options: GeneratePasswordInput): GeneratedPasswords {
  const classes = buildClasses(options);
  if (classes.length > options.length) throw invalidField('length', `is shorter than the ${classes.length} enabled classes`);
  const alphabet = classes.flat();
  const passwords: string[] = [];
  while (passwords.length < options.count) {
    const chars = Array.from({ length: options.length }, () => alphabet[randomInt(alphabet.length)]);
    if (classes.every((set) => chars.some((c) => set.includes(c)))) passwords.push(chars.join(''));
  }
  const entropyBits = countEntropyBits(
    classes.map((c) => c.length),
    options.length,
  );
  return { passwords, length: options.length, count: options.count, entropy_bits: entropyBits };
}
