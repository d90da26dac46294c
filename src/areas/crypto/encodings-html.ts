import { decodeHTML } from 'entities';

/** Characters escaped by {@link encodeHtmlEntities} (OWASP's minimal set for text and attributes). */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escape text for HTML content and quoted attributes.
 *
 * @example
 *   encodeHtmlEntities('<a href="x">') // '&lt;a href=&quot;x&quot;&gt;'
 */
export function encodeHtmlEntities(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * Decode character references as a browser does in text (the WHATWG HTML tokenizer, through the
 * `entities` library): all 2231 named references, the legacy ones without `;` (`&amp`, `&lt`,
 * `&copy`), any letter case the table has (`&AMP;`), numeric references with the HTML replacements
 * (0, surrogates and code points beyond U+10FFFF become U+FFFD; 0x80-0x9F are read as windows-1252,
 * so `&#128;` is €). Unknown names stay as written.
 *
 * @example
 *   decodeHtmlEntities('&lt;b&gt; &#x263A; &copy; &AMP;') // '<b> ☺ © &'
 */
export function decodeHtmlEntities(text: string): string {
  return decodeHTML(text);
}
