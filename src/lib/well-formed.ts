/**
 * Text with each lone surrogate replaced by U+FFFD (`String.prototype.toWellFormed`, which Node 20
 * has and TypeScript's ES2023 library does not declare): what UTF-8 can carry, so text is stored,
 * listed and served alike (SQLite would store a lone surrogate as three bytes that read back as
 * three U+FFFD).
 *
 * @example
 *   wellFormed('a\ud800') // 'a\ufffd'
 */
export const wellFormed = (text: string): string => (text as string & { toWellFormed(): string }).toWellFormed();

/** Whether `text` has no lone surrogate (`String.prototype.isWellFormed`). */
export const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();
