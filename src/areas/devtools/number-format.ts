import { invalidField } from '../../errors.js';

export type NumberFormatType = 'decimal' | 'currency' | 'percent' | 'scientific';

export interface NumberFormatInput {
  number: number;
  formatType: NumberFormatType;
  /** `ll_CC` or BCP 47 (`en-US`). */
  locale: string;
  /** ISO 4217 code; required for `currency`. */
  currency?: string;
  /** Fixed number of fraction digits (0..20); CLDR's default for the style otherwise. */
  decimals?: number;
}

export interface NumberFormatOutput {
  formatted: string;
  /** The locale as `ll_CC` (canonical casing, underscores). */
  locale: string;
}

/** One row per format type: the `Intl.NumberFormat` options it stands for. */
const FORMAT_TYPES: Record<NumberFormatType, (currency: string | undefined) => Intl.NumberFormatOptions> = {
  decimal: () => ({ style: 'decimal' }),
  currency: (currency) => ({ style: 'currency', currency }),
  percent: () => ({ style: 'percent' }),
  scientific: () => ({ notation: 'scientific' }),
};

/** The format type names, for schemas. */
export const NUMBER_FORMAT_TYPES = Object.keys(FORMAT_TYPES) as NumberFormatType[];

let currencies: Set<string> | undefined;
/** Built formatters by locale and options: building one costs far more than using it. */
const formatters = new Map<string, Intl.NumberFormat>();
const FORMATTER_CACHE_SIZE = 500;
/** Locales already resolved (valid ones only: a bad one throws before it is stored). */
const resolvedLocales = new Map<string, string>();

function getFormatter(tag: string, options: Intl.NumberFormatOptions, key = `${tag}|${JSON.stringify(options)}`): Intl.NumberFormat {
  let formatter = formatters.get(key);
  if (!formatter) {
    if (formatters.size >= FORMATTER_CACHE_SIZE) formatters.clear();
    formatter = new Intl.NumberFormat(tag, options);
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * Resolve a locale the way users write it (`de_CH`, `de-CH`) to a BCP 47 tag that Intl really
 * has data for. ICU silently falls back (`en_ZZ` would format as `en`), so the resolved locale
 * must keep every subtag that was asked for; otherwise 422.
 *
 * @example
 *   resolveLocale('pt_BR') // → 'pt-BR'
 */
export function resolveLocale(locale: string): string {
  let tag = resolvedLocales.get(locale);
  if (tag === undefined) {
    tag = checkLocale(locale);
    if (resolvedLocales.size >= FORMATTER_CACHE_SIZE) resolvedLocales.clear();
    resolvedLocales.set(locale, tag);
  }
  return tag;
}

/** Whether `resolved`, with its likely script and region added, has every subtag `requested` names (`maximize()` would turn ZZ into a real region). */
function sameWithLikelySubtags(requested: Intl.Locale, resolved: Intl.Locale): boolean {
  const full = resolved.maximize();
  return (
    requested.language === full.language &&
    (requested.script === undefined || requested.script === full.script) &&
    (requested.region === undefined || requested.region === full.region) &&
    requested.baseName.split('-').length <= 1 + Number(requested.script !== undefined) + Number(requested.region !== undefined)
  );
}

function checkLocale(locale: string): string {
  let requested: Intl.Locale;
  try {
    requested = new Intl.Locale(locale.replaceAll('_', '-'));
  } catch {
    throw invalidField('locale', `"${locale}" is not a locale name such as en_US`);
  }
  const resolved = new Intl.Locale(getFormatter(requested.baseName, {}).resolvedOptions().locale);
  // ICU keeps no separate data for a region that is its language's default where CLDR has none of its
  // own (nb-NO resolves to nb, which is Norwegian Bokmål of Norway): with the likely subtags added, the two are one.
  if (resolved.baseName !== requested.baseName && !sameWithLikelySubtags(requested, resolved)) {
    throw invalidField('locale', `"${locale}" is not a known locale`);
  }
  return requested.baseName;
}

/**
 * ISO 4217 codes that Intl's list (the currencies CLDR has data for) leaves out: precious metals,
 * special drawing rights, bond-market units, fund codes, the testing and "no currency" codes. Intl
 * formats them with the code as symbol (`XAU 1.00`).
 */
const ISO_4217_NOT_IN_INTL = [
  'BOV',
  'CHE',
  'CHW',
  'CLF',
  'COU',
  'MXV',
  'USN',
  'UYI',
  'UYW',
  'VED',
  'XAG',
  'XAU',
  'XBA',
  'XBB',
  'XBC',
  'XBD',
  'XDR',
  'XPD',
  'XPT',
  'XSU',
  'XTS',
  'XUA',
  'XXX',
];
/** Codes Intl still lists that ISO 4217 has withdrawn: HRK (Croatia joined the euro on 1 January 2023). */
const WITHDRAWN_FROM_ISO_4217 = ['HRK'];

/** Validate an ISO 4217 code (Intl's currencies, with ISO's special codes, without withdrawn ones); returns it upper-cased. */
function resolveCurrency(code: string): string {
  currencies ??= new Set(
    [...Intl.supportedValuesOf('currency'), ...ISO_4217_NOT_IN_INTL].filter((c) => !WITHDRAWN_FROM_ISO_4217.includes(c)),
  );
  const upper = code.toUpperCase();
  if (!currencies.has(upper)) throw invalidField('currency', `"${code}" is not an ISO 4217 currency code`);
  return upper;
}

/**
 * Format a number with CLDR data through `Intl.NumberFormat`. `percent` takes a ratio (0.85 →
 * "85%"); `scientific` uses the locale's own notation ("1.235E3" in en_US).
 *
 * @example
 *   formatNumber({ number: 1234.5, formatType: 'currency', locale: 'de_DE', currency: 'EUR' })
 *   // → { formatted: '1.234,50 €', locale: 'de_DE' }
 */
export function formatNumber(input: NumberFormatInput): NumberFormatOutput {
  const tag = resolveLocale(input.locale);
  const currency = input.currency === undefined ? undefined : resolveCurrency(input.currency);
  if (input.formatType === 'currency' && currency === undefined) throw invalidField('currency', 'is required when format_type is currency');
  const options = FORMAT_TYPES[input.formatType](currency);
  if (input.decimals !== undefined) {
    options.minimumFractionDigits = input.decimals;
    options.maximumFractionDigits = input.decimals;
  }
  const key = `${tag}|${input.formatType}|${currency}|${input.decimals}`;
  return { formatted: getFormatter(tag, options, key).format(input.number), locale: tag.replaceAll('-', '_') };
}
