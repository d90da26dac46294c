/**
 * `hook` first, then the route's own hooks (a route option takes one function or a list). For an
 * onRoute hook that puts a step on the routes it concerns, ahead of what they declare themselves.
 *
 * @example
 *   route.onRequest = prependHook(route.onRequest, authenticate);
 */
export function prependHook<T>(existing: T | T[] | undefined, hook: T): T[] {
  return existing === undefined ? [hook] : [hook, ...([existing].flat() as T[])];
}
