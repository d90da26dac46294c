import '@hyperjump/json-schema/draft-04';
import '@hyperjump/json-schema/draft-06';
import '@hyperjump/json-schema/draft-07';
import '@hyperjump/json-schema/draft-2019-09';
import '@hyperjump/json-schema/draft-2020-12';
import '@hyperjump/json-schema/formats'; // format handlers (email, uri, date-time, ipv4, uuid, ...)
import { getShouldValidateFormat } from '@hyperjump/json-schema';
import { addFormat, addKeyword, getKeyword } from '@hyperjump/json-schema/experimental';
import './json-schema-idn-formats.js'; // hostname, idn-hostname, idn-email without the library's log lines

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
    if (!own?.formats || !latest?.formats) throw new Error(`@hyperjump/json-schema no longer has a ${draft} format keyword with a formats map`);
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

export type Draft = '4' | '6' | '7' | '2019-09' | '2020-12';

export interface DraftRow {
  draft: Draft;
  /** The dialect URI (`$schema`) of the draft's meta-schema. */
  dialect: string;
  /** `format` is an assertion by default (drafts 4-7) or only an annotation (2019-09, 2020-12). */
  assertsFormat: boolean;
  /** `$ref` makes sibling keywords, `$id` included, be ignored (drafts 4-7). */
  refHidesSiblings: boolean;
  /** Keyword that names a schema resource. */
  idKeyword: '$id' | 'id';
}

/** One row per supported draft (CONTRACT §3.3). */
export const DRAFTS: readonly DraftRow[] = [
  { draft: '4', dialect: 'http://json-schema.org/draft-04/schema', assertsFormat: true, refHidesSiblings: true, idKeyword: 'id' },
  { draft: '6', dialect: 'http://json-schema.org/draft-06/schema', assertsFormat: true, refHidesSiblings: true, idKeyword: '$id' },
  { draft: '7', dialect: 'http://json-schema.org/draft-07/schema', assertsFormat: true, refHidesSiblings: true, idKeyword: '$id' },
  { draft: '2019-09', dialect: 'https://json-schema.org/draft/2019-09/schema', assertsFormat: false, refHidesSiblings: false, idKeyword: '$id' },
  { draft: '2020-12', dialect: 'https://json-schema.org/draft/2020-12/schema', assertsFormat: false, refHidesSiblings: false, idKeyword: '$id' },
];

export const DRAFT_NAMES = DRAFTS.map((row) => row.draft);
export const DEFAULT_DRAFT: Draft = '2020-12';

/** `http://json-schema.org/draft-07/schema#` → `json-schema.org/draft-07/schema` (scheme and empty fragment ignored). */
function normalizeDialect(uri: string): string {
  return uri.replace(/^https?:\/\//, '').replace(/#$/, '');
}

/** Each draft under every spelling of its dialect URI that normalizes to it (http, https or no scheme; with or without `#`). */
const BY_DIALECT = new Map<string, DraftRow>(
  DRAFTS.flatMap((row) => {
    const bare = normalizeDialect(row.dialect);
    return ['', 'http://', 'https://'].flatMap((scheme) => [`${scheme}${bare}`, `${scheme}${bare}#`]).map((uri): [string, DraftRow] => [uri, row]);
  }),
);

/**
 * The draft a `$schema` value names, or undefined for a custom meta-schema or none.
 *
 * @example
 *   draftOfDialect('http://json-schema.org/draft-07/schema#') // → the draft 7 row
 */
export function draftOfDialect(uri: unknown): DraftRow | undefined {
  return typeof uri === 'string' ? BY_DIALECT.get(uri) : undefined;
}

/**
 * The row of a draft name.
 *
 * @example
 *   draftRow('7').dialect // → 'http://json-schema.org/draft-07/schema'
 */
export function draftRow(draft: Draft): DraftRow {
  return DRAFTS.find((row) => row.draft === draft)!;
}
