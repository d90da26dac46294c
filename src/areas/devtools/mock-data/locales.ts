import { DevutilError } from '../../../errors.js';

/**
 * The locale ids of the pinned faker (`Object.keys(allLocales)` of @faker-js/faker 10.6.0), as data,
 * so the route can list and check locales before faker itself is loaded; a test keeps the two equal.
 */
export const FAKER_LOCALE_IDS: readonly string[] = [
  'af_ZA',
  'ar',
  'az',
  'base',
  'bn_BD',
  'cs_CZ',
  'cy',
  'da',
  'de',
  'de_AT',
  'de_CH',
  'dv',
  'el',
  'en',
  'en_AU',
  'en_AU_ocker',
  'en_BORK',
  'en_CA',
  'en_GB',
  'en_GH',
  'en_HK',
  'en_IE',
  'en_IN',
  'en_NG',
  'en_NP',
  'en_US',
  'en_ZA',
  'eo',
  'es',
  'es_MX',
  'fa',
  'fi',
  'fr',
  'fr_BE',
  'fr_CA',
  'fr_CH',
  'fr_LU',
  'fr_SN',
  'he',
  'hr',
  'hu',
  'hy',
  'id_ID',
  'it',
  'ja',
  'ka_GE',
  'ko',
  'ku_ckb',
  'ku_kmr_latin',
  'lv',
  'mk',
  'mn_MN_cyrl',
  'nb_NO',
  'ne',
  'nl',
  'nl_BE',
  'pl',
  'pt_BR',
  'pt_PT',
  'ro',
  'ro_MD',
  'ru',
  'sk',
  'sl_SI',
  'sr_RS_latin',
  'sv',
  'ta_IN',
  'th',
  'tr',
  'uk',
  'ur',
  'uz_UZ_latin',
  'vi',
  'yo_NG',
  'zh_CN',
  'zh_TW',
  'zu_ZA',
];

// Faker locales named by language only, mapped to the country whose `ll_CC` name selects them.
const LANGUAGE_COUNTRY: Record<string, string> = {
  ar: 'SA',
  az: 'AZ',
  cy: 'GB',
  da: 'DK',
  de: 'DE',
  dv: 'MV',
  el: 'GR',
  es: 'ES',
  fa: 'IR',
  fi: 'FI',
  fr: 'FR',
  he: 'IL',
  hr: 'HR',
  hu: 'HU',
  hy: 'AM',
  it: 'IT',
  ja: 'JP',
  ko: 'KR',
  lv: 'LV',
  mk: 'MK',
  ne: 'NP',
  nl: 'NL',
  pl: 'PL',
  ro: 'RO',
  ru: 'RU',
  sk: 'SK',
  sv: 'SE',
  th: 'TH',
  tr: 'TR',
  uk: 'UA',
  ur: 'PK',
  vi: 'VN',
};

/**
 * `ll_CC` → faker locale id. Faker ids already in that form are kept (en_US, de_AT, pt_BR, ...);
 * language-only ids map through LANGUAGE_COUNTRY (de → de_DE, ja → ja_JP); script-suffixed ids drop the script (sr_RS_latin → sr_RS).
 */
function buildLocaleTable(): Map<string, string> {
  const table = new Map<string, string>();
  for (const [lang, country] of Object.entries(LANGUAGE_COUNTRY))
    if (FAKER_LOCALE_IDS.includes(lang)) table.set(`${lang}_${country}`, lang);
  for (const id of FAKER_LOCALE_IDS) {
    const exact = /^([a-z]{2})_([A-Z]{2})(?:_[a-z]+)?$/.exec(id);
    if (exact) table.set(`${exact[1]}_${exact[2]}`, id); // faker's own country locale wins
  }
  return table;
}

const LOCALES = buildLocaleTable();

/** Every accepted `ll_CC` locale name, sorted. */
export const MOCK_LOCALES: readonly string[] = [...LOCALES.keys()].sort();

/**
 * The faker locale ids a Faker for `ll_CC` (or `ll-CC`) is built from, most specific first: the
 * locale, its language, English, then `base`. Unknown locale → 422 `validation_error` on `locale`.
 *
 * @example
 *   fakerLocaleChain('de-AT') // ['de_AT', 'de', 'en', 'base']
 */
export function fakerLocaleChain(locale: string): string[] {
  const id = LOCALES.get(locale.replace('-', '_'));
  if (!id) {
    throw new DevutilError('validation_error', `Unknown locale "${locale}". Supported: ${MOCK_LOCALES.join(', ')}.`, {
      errors: [{ path: 'locale', message: `is not a supported locale (e.g. en_US, de_DE, fr_FR, ja_JP)` }],
    });
  }
  return [...new Set([id, id.split('_')[0]!, 'en', 'base'])].filter((x) => FAKER_LOCALE_IDS.includes(x));
}
