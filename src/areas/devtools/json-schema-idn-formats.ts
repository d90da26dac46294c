import { addFormat } from '@hyperjump/json-schema/experimental';
import { isHostname } from '@hyperjump/json-schema-formats';
import { isIdnHostname } from 'idn-hostname';

/**
 * The `hostname`, `idn-hostname` and `idn-email` formats with the library's own rules, without its
 * `console.log` of every name it refuses (the formats package logs the exception `idn-hostname`
 * throws, a stack trace on the service's log stream per invalid value).
 */

const ENDS_WITH_DOT = /[\x2E\uFF0E\u3002\uFF61]$/;

/** UTS #46 / IDNA2008 host name, as `isIdn` of @hyperjump/json-schema-formats decides, quietly. */
export function isIdnHost(hostname: string): boolean {
  if (ENDS_WITH_DOT.test(hostname)) return false;
  try {
    return isIdnHostname(hostname);
  } catch {
    return false;
  }
}

// RFC 6531 mailbox, the grammar of @hyperjump/json-schema-formats (rfc6531.js) written so that no
// two alternatives match the same character: its atext and qtext offer ucschar and UTF8-non-ascii
// (which holds ucschar) side by side, and a failing match then backtracks exponentially (29 "ü"
// without "@" took 10 s on the event loop). Merged into one class each, the language is the same.
const NON_ASCII = '\\u{80}-\\u{D7FF}\\u{E000}-\\u{10FFFF}';
const UCSCHAR = '\\u{A0}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}\\u{10000}-\\u{1FFFD}\\u{20000}-\\u{2FFFD}\\u{30000}-\\u{3FFFD}' +
  '\\u{40000}-\\u{4FFFD}\\u{50000}-\\u{5FFFD}\\u{60000}-\\u{6FFFD}\\u{70000}-\\u{7FFFD}\\u{80000}-\\u{8FFFD}\\u{90000}-\\u{9FFFD}' +
  '\\u{A0000}-\\u{AFFFD}\\u{B0000}-\\u{BFFFD}\\u{C0000}-\\u{CFFFD}\\u{D0000}-\\u{DFFFD}\\u{E1000}-\\u{EFFFD}';
const ATOM = `[\\w!#$%&'*+\\-/=?^\`{|}~${NON_ASCII}]+`;
const QUOTED = `"(?:[\\x20-\\x21\\x23-\\x5B\\x5D-\\x7E${NON_ASCII}]|\\\\[\\x20-\\x7E])*"`;
const LET_DIG_UCS = `[a-zA-Z\\d${UCSCHAR}]`;
const SUB_DOMAIN = `${LET_DIG_UCS}(?:[a-zA-Z\\d${UCSCHAR}-]*${LET_DIG_UCS})?`;
const DEC_OCTET = '(?:\\d|[1-9]\\d|1\\d\\d|2[0-4]\\d|25[0-5])';
const IPV4 = `${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}\\.${DEC_OCTET}`;
const H16 = '[\\da-fA-F]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 = `(?:(?:${H16}:){6}${LS32}|::(?:${H16}:){5}${LS32}|(?:${H16})?::(?:${H16}:){4}${LS32}|(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}|` +
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}|(?:(?:${H16}:){0,3}${H16})?::(?:${H16}:){1}${LS32}|(?:(?:${H16}:){0,4}${H16})?::${LS32}|` +
  `(?:(?:${H16}:){0,5}${H16})?::${H16}|(?:(?:${H16}:){0,6}${H16})?::)`;
const GENERAL_LITERAL = '[a-zA-Z\\d-]*[a-zA-Z\\d]:[\\x21-\\x5A\\x5E-\\x7E]+';
const MAILBOX = new RegExp(
  `^(?:${ATOM}(?:\\.${ATOM})*|${QUOTED})@(?:\\[(?:${IPV4}|IPv6:${IPV6}|${GENERAL_LITERAL})\\]|(?<domain>${SUB_DOMAIN}(?:\\.${SUB_DOMAIN})*))$`,
  'u',
);

/** RFC 6531 address, as the library decides it (its grammar, then UTS #46 on the domain), in linear time. */
export function isIdnEmailAddress(email: string): boolean {
  const match = MAILBOX.exec(email);
  if (!match) return false;
  const domain = match.groups?.domain;
  return domain === undefined || isIdnHost(domain);
}

addFormat({ id: 'https://json-schema.org/format/hostname', handler: (value: unknown) => typeof value !== 'string' || (isHostname(value) && isIdnHost(value)) });
addFormat({ id: 'https://json-schema.org/format/idn-hostname', handler: (value: unknown) => typeof value !== 'string' || isIdnHost(value) });
addFormat({ id: 'https://json-schema.org/format/idn-email', handler: (value: unknown) => typeof value !== 'string' || isIdnEmailAddress(value) });
