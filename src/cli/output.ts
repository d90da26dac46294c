import type { Writable } from 'node:stream';

type Env = Record<string, string | undefined>;

/**
 * Colour only on a terminal, and never when NO_COLOR is set to anything (https://no-color.org).
 *
 * @example
 *   colourEnabled(process.stdout) // false when piped
 */
export function colourEnabled(stream: Writable & { isTTY?: boolean }, env: Env = process.env): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}

export interface Paint {
  green(text: string): string;
  yellow(text: string): string;
  red(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const sgr = (on: number, off: number) => (text: string) => `\x1b[${on}m${text}\x1b[${off}m`;
const plain = (text: string) => text;

/** ANSI colours for `stream`, or identity functions when it gets none. */
export function paintFor(stream: Writable & { isTTY?: boolean }, env: Env = process.env): Paint {
  if (!colourEnabled(stream, env)) return { green: plain, yellow: plain, red: plain, dim: plain, bold: plain };
  return { green: sgr(32, 39), yellow: sgr(33, 39), red: sgr(31, 39), dim: sgr(2, 22), bold: sgr(1, 22) };
}

/** Colour an HTTP status by class: 2xx green, 3xx and 4xx yellow, 5xx red. */
export function paintStatus(paint: Paint, status: number): string {
  const text = String(status);
  if (status < 300) return paint.green(text);
  return status < 500 ? paint.yellow(text) : paint.red(text);
}

// C0 controls but tab and newline, DEL, and the C1 controls (U+009B opens a control sequence on some terminals).
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Text that others chose (a captured request, a replay target's answer, a name) made safe to show
 * on a terminal: each control character but tab and newline written as `\xNN`, so that a request
 * sent to a public catch URL cannot move the cursor, clear the screen or set the window title.
 *
 * @example
 *   printable('ok\x1b[2J') // 'ok\\x1b[2J'
 */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Write one line on stdout. */
export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Write one line on stderr (messages, progress). */
export function note(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Write `value` as indented JSON on stdout (`--json`). */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Print rows as aligned columns with a header line, cells {@link printable}.
 *
 * @example
 *   printTable([{ id: 'bin_1', name: 'a' }], ['id', 'name']) // "ID     NAME\nbin_1  a\n"
 */
export function printTable(rows: Record<string, unknown>[], columns: string[]): void {
  const cells = [columns.map((c) => c.toUpperCase()), ...rows.map((row) => columns.map((c) => printable(String(row[c] ?? ''))))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  for (const line of cells) say(line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
}

/**
 * Local wall-clock time of `date` as HH:MM:SS.
 *
 * @example
 *   clockTime(new Date(2026, 0, 1, 9, 5, 7)) // '09:05:07'
 */
export function clockTime(date: Date): string {
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** Print a tool's result: a string alone (so it pipes), anything else as JSON; `--json` prints the whole answer. */
export function printResult(answer: unknown, result: unknown, json: boolean | undefined): void {
  if (json) printJson(answer);
  else if (typeof result === 'string') say(result);
  else printJson(result);
}

/** Print a record as `name: value` lines, objects as JSON, values {@link printable}. */
export function printFields(record: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(record))
    say(`${name}: ${printable(typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value))}`);
}
