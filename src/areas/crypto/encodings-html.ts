/** Characters escaped by {@link encodeHtmlEntities} (OWASP's minimal set for text and attributes). */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Named entities decoded (the common ones; unknown names are left untouched). */
const NAMED = new Map<string, string>(Object.entries({
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', trade: '™',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»',
  euro: '€', pound: '£', yen: '¥', cent: '¢', sect: '§', para: '¶', deg: '°', plusmn: '±', times: '×', divide: '÷',
  middot: '·', bull: '•', iexcl: '¡', iquest: '¿', shy: '\u00ad', micro: 'µ', frac12: '½', frac14: '¼', frac34: '¾',
  auml: 'ä', ouml: 'ö', uuml: 'ü', Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', szlig: 'ß', eacute: 'é', egrave: 'è',
  ecirc: 'ê', aacute: 'á', agrave: 'à', acirc: 'â', ccedil: 'ç', ntilde: 'ñ', oacute: 'ó', iacute: 'í', uacute: 'ú',
  larr: '←', rarr: '→', uarr: '↑', darr: '↓', hearts: '♥', check: '✓', zwj: '\u200d', zwnj: '\u200c',
}));

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
 * Decode `&#NNN;`, `&#xHH;` and the named entities above. A numeric reference to a surrogate, 0
 * or beyond U+10FFFF becomes U+FFFD (as browsers do); unknown names stay as written.
 *
 * @example
 *   decodeHtmlEntities('&lt;b&gt; &#x263A; &copy;') // '<b> ☺ ©'
 */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#[0-9]{1,8}|#[xX][0-9a-fA-F]{1,8}|[A-Za-z][A-Za-z0-9]{1,31});/g, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED.get(ref) ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    const invalid = code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff);
    return invalid ? '\ufffd' : String.fromCodePoint(code);
  });
}
