// The time zones the date format page suggests: the browser's IANA list, under the names the tz
// database uses today (browsers answer CLDR's older spellings, such as Asia/Calcutta), each with its
// UTC offset now so that an offset can be searched too.
import type { PickerOption } from './number-format-form';

/** CLDR ids that the tz database has renamed: the current name, which the API knows as a zone of its own. */
const RENAMED: Record<string, string> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

/**
 * The zone names to suggest from the browser's list: current spellings, sorted, UTC first.
 *
 * @example
 *   zoneNames(['Europe/Kiev', 'Asia/Tokyo']) // ['UTC', 'Asia/Tokyo', 'Europe/Kyiv']
 */
export function zoneNames(supported: readonly string[]): string[] {
  const names = new Set(supported.map((zone) => RENAMED[zone] ?? zone));
  names.delete('UTC');
  return ['UTC', ...[...names].sort()];
}

/** Each zone of {@link zoneNames} with its offset at `now` ("GMT+05:30", "GMT" for UTC itself). */
export function zoneOptions(supported: readonly string[], now: Date): PickerOption[] {
  return zoneNames(supported).map((zone) => {
    const parts = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(now);
    return { value: zone, label: parts.find((p) => p.type === 'timeZoneName')?.value };
  });
}
