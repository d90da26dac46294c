import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import { UsageError } from './failures.js';

/**
 * The bytes a value argument names: `@path` a file's, `-` (or `@-`) standard input's, else the text itself.
 *
 * @example
 *   readValue('@body.json') // the file's bytes
 *   readValue('{"ok":true}') // Buffer of that text
 */
export function readValue(raw: string): Buffer {
  if (raw === '-' || raw === '@-') return readFileSync(0);
  if (!raw.startsWith('@')) return Buffer.from(raw, 'utf8');
  try {
    return readFileSync(raw.slice(1));
  } catch (err) {
    throw new UsageError(`cannot read ${raw.slice(1)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** {@link readValue} as text. */
export function readText(raw: string): string {
  return readValue(raw).toString('utf8');
}

/** {@link readValue} parsed as JSON; not JSON is a usage error naming `what`. */
export function readJson(raw: string, what: string): unknown {
  const text = readText(raw);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${what} is not JSON: ${(err as Error).message}`);
  }
}

/** Read a file, or all of standard input when there is none. */
export function readInput(file: string | undefined): Buffer {
  if (file === undefined || file === '-') return readFileSync(0);
  return readValue(`@${file}`);
}

/** A commander parser for a whole number within [min, max]. */
export function wholeNumber(min: number, max: number) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`a whole number from ${min} to ${max}`);
    return Number(value);
  };
}

/**
 * A commander collector for a repeatable `--header 'Name: value'`.
 *
 * @example
 *   collectHeader('X-A: 1', {}) // { 'X-A': '1' }
 */
export function collectHeader(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const colon = value.indexOf(':');
  if (colon <= 0) throw new InvalidArgumentError(`"${value}" is not "Name: value"`);
  return { ...previous, [value.slice(0, colon).trim()]: value.slice(colon + 1).trim() };
}
