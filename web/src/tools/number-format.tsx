// The number format page: the generic fields, with searchable pickers for the locale (common CLDR
// locales, named in English) and the currency (the browser's ISO 4217 list); the answer live.
import { useMemo } from 'preact/hooks';
import { PickerForm, ResultSection, type PickerOption } from './number-format-form';
import { NUMBER_LOCALES, localeName } from './number-format-locales';
import type { ToolPageProps } from './types';

function currencyOptions(): PickerOption[] {
  const names = new Intl.DisplayNames(['en'], { type: 'currency' });
  return Intl.supportedValuesOf('currency').map((code) => ({ value: code, label: names.of(code) }));
}

export default function NumberFormatPage(props: ToolPageProps) {
  const pickers = useMemo(
    () => ({
      locale: { options: NUMBER_LOCALES.map((value) => ({ value, label: localeName(value) })), noun: 'locales' },
      currency: { options: currencyOptions(), noun: 'currencies' },
    }),
    [],
  );
  return (
    <div class="tool-columns">
      <PickerForm props={props} pickers={pickers} />
      <ResultSection props={props} />
    </div>
  );
}
