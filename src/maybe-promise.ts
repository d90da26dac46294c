/**
 * A value now or later. The per-request authentication and credit path uses it so that, when the
 * store answers from memory (key cache, SQLite's in-memory usage counters), a request passes without
 * a promise per step; a networked store (Redis) still returns promises and the same code awaits them.
 */
export type MaybePromise<T> = T | Promise<T>;

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * `next(value)` now when `value` is plain, after it resolves otherwise.
 *
 * @example
 *   andThen(store.usage.creditsUsed(id, period), (used) => limit - used)
 */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return isPromise(value) ? value.then(next) : next(value);
}
