// The dialects and formats the validator knows: every supported draft, the library's format
// handlers, and the service's corrections to them below. Imported by json-schema-compile.ts only,
// so none of it loads before the first validation.
import '@hyperjump/json-schema/draft-04';
import '@hyperjump/json-schema/draft-06';
import '@hyperjump/json-schema/draft-07';
import '@hyperjump/json-schema/draft-2019-09';
import '@hyperjump/json-schema/draft-2020-12';
import '@hyperjump/json-schema/formats'; // format handlers (email, uri, date-time, ipv4, uuid, ...)
import { getShouldValidateFormat } from '@hyperjump/json-schema';
import { addFormat, addKeyword, getKeyword } from '@hyperjump/json-schema/experimental';
import { isHostname } from '@hyperjump/json-schema-formats';
import { isIdnHostname } from 'idn-hostname';

const RFC3339_TIME = /^([01]\d|2[0-3]):([0-5]\d):([0-5]\d|60)(?:\.\d+)?(?:[zZ]|([+-])([01]\d|2[0-3]):([0-5]\d))$/;

/**
 * RFC 3339 `full-time` (§5.6), with a leap second (`:60`) only where it can fall: 23:59:60 UTC,
 * whatever the offset (`15:59:60-08:00`). The library's `time` refuses every leap second, while
 * its `date-time` accepts them.
 */
function isRfc3339Time(text: string): boolean {
  const m = RFC3339_TIME.exec(text);
  if (!m) return false;
  if (m[3] !== '60') return true;
  const offset = m[4] === undefined ? 0 : (m[4] === '+' ? 1 : -1) * (Number(m[5]) * 60 + Number(m[6]));
  const utcMinute = (((Number(m[1]) * 60 + Number(m[2]) - offset) % 1440) + 1440) % 1440;
  return utcMinute === 23 * 60 + 59;
}
addFormat({ id: 'https://json-schema.org/format/time', handler: (value: unknown) => typeof value !== 'string' || isRfc3339Time(value) });

/**
 * `assert_format: true` asserts every format the service knows under drafts 4, 6 and 7 as well
 * (CONTRACT §3.3: "asserts it under any draft (email, uri, date-time, date, ipv4, ipv6, uuid, ...)"):
 * each of those drafts' `format` keyword knows only the formats its own draft defines (draft 4 has
 * no `uuid` or `date`) and passes every other name. With the request flag set, a name it does not
 * know goes to 2020-12's keyword, which knows them all; without it, each draft keeps its own list,
 * as the official suite requires.
 */
function assertEveryFormatWhenAsked(): void {
  type FormatKeyword = { id: string; formats: Record<string, string>; interpret: (format: string, ...rest: unknown[]) => boolean };
  const latest = getKeyword('https://json-schema.org/keyword/draft-2020-12/format') as unknown as FormatKeyword;
  for (const draft of ['draft-04', 'draft-06', 'draft-07']) {
    const own = getKeyword(`https://json-schema.org/keyword/${draft}/format`) as unknown as FormatKeyword;
    if (!own?.formats || !latest?.formats)
      throw new Error(`@hyperjump/json-schema no longer has a ${draft} format keyword with a formats map`);
    addKeyword({
      ...own,
      interpret: (format: string, ...rest: unknown[]) =>
        getShouldValidateFormat() === true && !Object.hasOwn(own.formats, format) && Object.hasOwn(latest.formats, format)
          ? latest.interpret(format, ...rest)
          : own.interpret(format, ...rest),
    } as never);
  }
}
assertEveryFormatWhenAsked();

// The `hostname`, `idn-hostname` and `idn-email` formats with the library's own rules, without its
// `console.log` of every name it refuses (the formats package logs the exception `idn-hostname`
// throws, a stack trace on the service's log stream per invalid value).
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
const UCSCHAR =
  '\\u{A0}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}\\u{10000}-\\u{1FFFD}\\u{20000}-\\u{2FFFD}\\u{30000}-\\u{3FFFD}' +
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
const IPV6 =
  `(?:(?:${H16}:){6}${LS32}|::(?:${H16}:){5}${LS32}|(?:${H16})?::(?:${H16}:){4}${LS32}|(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}|` +
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

addFormat({
  id: 'https://json-schema.org/format/hostname',
  handler: (value: unknown) => typeof value !== 'string' || (isHostname(value) && isIdnHost(value)),
});
addFormat({
  id: 'https://json-schema.org/format/idn-hostname',
  handler: (value: unknown) => typeof value !== 'string' || isIdnHost(value),
});
addFormat({
  id: 'https://json-schema.org/format/idn-email',
  handler: (value: unknown) => typeof value !== 'string' || isIdnEmailAddress(value),
});
