import { addFormat } from '@hyperjump/json-schema/experimental';
import { isHostname, isIdnEmail } from '@hyperjump/json-schema-formats';
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

/**
 * RFC 6531 address. The library's mailbox grammar puts the domain after the last `@` (a domain
 * holds none): one that is no IDN host name fails here, before the library would log its reason.
 */
export function isIdnEmailAddress(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (!domain.startsWith('[') && !isIdnHost(domain)) return false;
  return isIdnEmail(email);
}

addFormat({ id: 'https://json-schema.org/format/hostname', handler: (value: unknown) => typeof value !== 'string' || (isHostname(value) && isIdnHost(value)) });
addFormat({ id: 'https://json-schema.org/format/idn-hostname', handler: (value: unknown) => typeof value !== 'string' || isIdnHost(value) });
addFormat({ id: 'https://json-schema.org/format/idn-email', handler: (value: unknown) => typeof value !== 'string' || isIdnEmailAddress(value) });
