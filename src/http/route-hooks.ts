import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

const OWN_HOOK = Symbol('devutil.hook');
const PROLOGUE = Symbol('devutil.prologue');

type Marked = { [OWN_HOOK]?: boolean; [PROLOGUE]?: boolean };
type OnRequestHook = (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void | Promise<unknown>;

/** A route option's hooks as a list (Fastify takes one function or an array). */
function hookList<T>(existing: T | T[] | undefined): T[] {
  return existing === undefined ? [] : ([existing].flat() as T[]);
}

/**
 * `hook` first, then the route's own hooks. Idempotent: Fastify derives HEAD routes from GET
 * options that already carry the hook, and it must not run twice.
 *
 * @example
 *   route.onResponse = prependHook(route.onResponse, record);
 */
export function prependHook<T>(existing: T | T[] | undefined, hook: T): T[] {
  const list = hookList(existing);
  if (list.some((h) => (h as Marked)[OWN_HOOK])) return list;
  (hook as Marked)[OWN_HOOK] = true;
  return [hook, ...list];
}

/**
 * Run `step` at the start of the route's first onRequest hook, or as its only one: every hook
 * Fastify runs is a pass through its hook runner, and a step that cannot fail or wait needs no hook
 * of its own. Call it after every plugin that adds onRequest hooks to routes has added its own.
 * Idempotent, like {@link prependHook} (the wrapper carries the marks of the hook it wraps).
 *
 * @example
 *   route.onRequest = withPrologue(route.onRequest, (request, reply) => reply.header('x-request-id', request.id));
 */
export function withPrologue(existing: OnRequestHook | OnRequestHook[] | undefined, step: (request: FastifyRequest, reply: FastifyReply) => void): OnRequestHook[] {
  const list = hookList(existing);
  if (list.some((h) => (h as Marked)[PROLOGUE])) return list;
  const [first, ...rest] = list;
  const hook: OnRequestHook = first
    ? function (request, reply, done) {
        step(request, reply);
        return first.call(this, request, reply, done);
      }
    : (request, reply, done) => {
        step(request, reply);
        done();
      };
  if (first) for (const mark of Object.getOwnPropertySymbols(first)) (hook as unknown as Record<symbol, unknown>)[mark] = (first as unknown as Record<symbol, unknown>)[mark];
  (hook as Marked)[PROLOGUE] = true;
  return [hook, ...rest];
}
