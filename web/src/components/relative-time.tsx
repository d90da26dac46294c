import { useEffect, useState } from 'preact/hooks';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/**
 * `at` relative to `now` in the browser's language, in the largest unit that fits.
 *
 * @example
 *   relativeTime(Date.parse('2026-12-01T10:00:00Z'), Date.parse('2026-12-01T10:03:00Z')) // '3 minutes ago'
 */
export function relativeTime(at: number, now: number): string {
  const seconds = Math.round((at - now) / 1000);
  if (Math.abs(seconds) < 5) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(seconds, 'second');
}

/** The current time, updated every `everyMs` while mounted (one timer per component that needs it). */
export function useNow(everyMs = 15_000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** An ISO timestamp shown as "3 minutes ago", the exact local time on hover (and to screen readers via `datetime`). */
export function RelativeTime({ iso }: { iso: string }) {
  const now = useNow();
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return <span>{iso}</span>;
  return (
    <time dateTime={iso} title={exact.format(at)}>
      {relativeTime(at, now)}
    </time>
  );
}
