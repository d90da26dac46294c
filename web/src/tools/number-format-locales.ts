// The locales the number format page suggests: one or more for each widely used language, as the
// `ll_CC` names the API takes, each named in English by the browser's own CLDR data.

/** Language and region pairs the service's CLDR data formats (each checked against POST /v1/number-format). */
// prettier-ignore
export const NUMBER_LOCALES = [
  'af_ZA', 'am_ET', 'ar_AE', 'ar_EG', 'ar_SA', 'az_AZ', 'be_BY', 'bg_BG', 'bn_BD', 'bn_IN', 'bs_BA', 'ca_ES', 'cs_CZ', 'cy_GB',
  'da_DK', 'de_AT', 'de_CH', 'de_DE', 'el_GR', 'en_AU', 'en_CA', 'en_GB', 'en_IE', 'en_IN', 'en_NZ', 'en_SG', 'en_US', 'en_ZA',
  'es_AR', 'es_CL', 'es_CO', 'es_ES', 'es_MX', 'es_US', 'et_EE', 'eu_ES', 'fa_IR', 'fi_FI', 'fil_PH', 'fr_BE', 'fr_CA',
  'fr_CH', 'fr_FR', 'ga_IE', 'gl_ES', 'gu_IN', 'he_IL', 'hi_IN', 'hr_HR', 'hu_HU', 'hy_AM', 'id_ID', 'is_IS', 'it_CH', 'it_IT',
  'ja_JP', 'ka_GE', 'kk_KZ', 'km_KH', 'kn_IN', 'ko_KR', 'lo_LA', 'lt_LT', 'lv_LV', 'mk_MK', 'ml_IN', 'mn_MN', 'mr_IN', 'ms_MY',
  'my_MM', 'nb_NO', 'ne_NP', 'nl_BE', 'nl_NL', 'pa_IN', 'pl_PL', 'pt_BR', 'pt_PT', 'ro_RO', 'ru_RU', 'si_LK', 'sk_SK', 'sl_SI',
  'sq_AL', 'sr_RS', 'sv_SE', 'sw_KE', 'ta_IN', 'te_IN', 'th_TH', 'tr_TR', 'uk_UA', 'ur_PK', 'uz_UZ', 'vi_VN', 'zh_CN', 'zh_HK',
  'zh_TW', 'zu_ZA',
];

let names: Intl.DisplayNames | undefined;

/**
 * `de_CH` → `German (Switzerland)`, from the browser's locale data; the name itself when it has none.
 *
 * @example
 *   localeName('pt_BR') // 'Portuguese (Brazil)'
 */
export function localeName(locale: string): string {
  try {
    names ??= new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard' });
    return names.of(locale.replace('_', '-')) ?? locale;
  } catch {
    return locale;
  }
}
