import { allLocales, Faker, type LocaleDefinition } from '@faker-js/faker';
import { DevutilError } from '../../../errors.js';

// Faker locales named by language only, mapped to the country whose `ll_CC` name selects them.
const LANGUAGE_COUNTRY: Record<string, string> = {
  ar: 'SA', az: 'AZ', cy: 'GB', da: 'DK', de: 'DE', dv: 'MV', el: 'GR', es: 'ES', fa: 'IR', fi: 'FI',
  fr: 'FR', he: 'IL', hr: 'HR', hu: 'HU', hy: 'AM', it: 'IT', ja: 'JP', ko: 'KR', lv: 'LV', mk: 'MK', ne: 'NP', nl: 'NL',
  pl: 'PL', ro: 'RO', ru: 'RU', sk: 'SK', sv: 'SE', th: 'TH', tr: 'TR', uk: 'UA', ur: 'PK', vi: 'VN',
};

/**
 * `ll_CC` → faker locale id. Faker ids already in that form are kept (en_US, de_AT, pt_BR, ...);
 * language-only ids map through LANGUAGE_COUNTRY (de → de_DE, ja → ja_JP); script-suffixed ids drop the script (sr_RS_latin → sr_RS).
 */
function buildLocaleTable(): Map<string, string> {
  const table = new Map<string, string>();
  for (const [lang, country] of Object.entries(LANGUAGE_COUNTRY)) if (lang in allLocales) table.set(`${lang}_${country}`, lang);
  for (const id of Object.keys(allLocales)) {
    const exact = /^([a-z]{2})_([A-Z]{2})(?:_[a-z]+)?$/.exec(id);
    if (exact) table.set(`${exact[1]}_${exact[2]}`, id); // faker's own country locale wins
  }
  return table;
}

const LOCALES = buildLocaleTable();
const definitions = new Map<string, LocaleDefinition>();

/** Every accepted `ll_CC` locale name, sorted. */
export const MOCK_LOCALES: readonly string[] = [...LOCALES.keys()].sort();

/**
 * The faker definitions for an id: the locale, its language, English, then `base`, merged once and
 * cached (a Faker built from one merged definition costs about half of one built from the chain).
 */
function definitionFor(id: string): LocaleDefinition {
  const cached = definitions.get(id);
  if (cached) return cached;
  const lang = id.split('_')[0];
  const ids = [...new Set([id, lang, 'en', 'base'])].filter((x) => x in allLocales);
  const merged = new Faker({ locale: ids.map((x) => allLocales[x as keyof typeof allLocales]) }).rawDefinitions;
  definitions.set(id, merged);
  return merged;
}

/**
 * A fresh Faker for a locale written `ll_CC` (or `ll-CC`), never the shared global instance.
 * Unknown locale → 422 `validation_error` on `locale`.
 *
 * @example
 *   createFaker('de_DE').person.firstName(); // "Jürgen"
 */
export function createFaker(locale: string): Faker {
  const id = LOCALES.get(locale.replace('-', '_'));
  if (!id) {
    throw new DevutilError('validation_error', `Unknown locale "${locale}". Supported: ${MOCK_LOCALES.join(', ')}.`, {
      errors: [{ path: 'locale', message: `is not a supported locale (e.g. en_US, de_DE, fr_FR, ja_JP)` }],
    });
  }
  return new Faker({ locale: definitionFor(id) });
}
