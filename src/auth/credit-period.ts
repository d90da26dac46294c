/** A credit period: one UTC calendar month. */
export interface CreditPeriod {
  /** `YYYY-MM`: the key usage is counted under. */
  id: string;
  /** First instant of the period (epoch ms). */
  start: number;
  /** First instant of the next period (epoch ms). */
  end: number;
  /** `end` as an ISO timestamp (`resets_at`). */
  endIso: string;
}

let last: CreditPeriod | null = null;

/**
 * The credit period an instant falls in. Every keyed request asks, so the answer for the current
 * month is kept and reused until the clock leaves it (tests move the clock both ways).
 */
export function creditPeriodAt(now: number): CreditPeriod {
  if (last && now >= last.start && now < last.end) return last;
  const d = new Date(now);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  last = { id: d.toISOString().slice(0, 7), start, end, endIso: new Date(end).toISOString() };
  return last;
}

/** `YYYY-MM` of a UTC instant: the credit period. */
export function creditPeriod(now: number): string {
  return creditPeriodAt(now).id;
}

/** First instant of the next credit period. */
export function creditPeriodEnd(now: number): number {
  return creditPeriodAt(now).end;
}
