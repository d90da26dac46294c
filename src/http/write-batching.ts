import { Socket } from 'node:net';

const realUncork = Socket.prototype.uncork;
const realDestroy = Socket.prototype.destroy;
const HELD = Symbol('devutil.heldWrites');
const THROUGH = Symbol('devutil.writeThrough');

type BatchedSocket = Socket & { [HELD]?: boolean; [THROUGH]?: boolean };

/**
 * Most sockets held at once: the one that makes this many sends them all. Holding longer saves more
 * wake-ups but leaves the peer idle while the service works and the service idle while the peer
 * catches up. First tuned at 8 (unbounded holding then cost `/healthz` 20-35% of its requests/s),
 * while every `process.nextTick` still went through V8's runtime (src/tick-object-shape.ts). Since
 * that fix, measured side by side (two service processes, autocannon, 50 connections, 6 alternating
 * rounds, medians): against 8, a cap of 32 gave JMESPath +15% (16: +8%, 4: -9%), sha256 hashing
 * +12%, `/v1/account` +7%, and cost `/healthz` 5%. The fast routes (mocks, catch) write through.
 */
export const MAX_HELD = 32;

/** Sockets whose last uncork is held until the end of this event-loop iteration. */
let held: BatchedSocket[] = [];
/** An immediate is pending (it flushes whatever is held when it runs). */
let scheduled = false;

function onImmediate(): void {
  scheduled = false;
  flush();
}

function flush(): void {
  const sockets = held;
  held = [];
  for (const socket of sockets) release(socket);
}

function release(socket: BatchedSocket): void {
  if (!socket[HELD]) return;
  socket[HELD] = false;
  realUncork.call(socket);
}

/**
 * Stand-in for `socket.uncork()`: the uncork that would write (the last one) waits for the end of
 * this event-loop iteration or for {@link MAX_HELD} sockets, whichever comes first, so responses
 * finished while handling one batch of ready sockets leave in bursts.
 */
function heldUncork(this: BatchedSocket): void {
  const state = (this as unknown as { _writableState: { corked: number } })._writableState;
  if (state.corked !== 1 || this[THROUGH]) {
    realUncork.call(this);
    return;
  }
  if (this[HELD]) return;
  this[HELD] = true;
  if (held.push(this) >= MAX_HELD) {
    flush();
    return;
  }
  if (!scheduled) {
    scheduled = true;
    setImmediate(onImmediate);
  }
}

/** A socket destroyed while its writes are held sends them first, as it would have without batching. */
function flushingDestroy(this: BatchedSocket, error?: Error): BatchedSocket {
  release(this);
  return realDestroy.call(this, error) as BatchedSocket;
}

/**
 * Batch a connection's writes per event-loop iteration. Node's HTTP server writes each response
 * as soon as it ends, one `writev` per response; on a loopback or same-host peer (a reverse proxy,
 * a load generator) each of those writes wakes the peer's thread, and that wake-up is paid by the
 * writer (`perf` on this 2-vCPU VM: 12 µs of a 77 µs JMESPath call, 16% of its time, under wrk).
 * Holding the socket corked until the check phase (`setImmediate`, which runs right after the poll
 * phase that handled the ready sockets), or until {@link MAX_HELD} sockets wait, sends the same
 * bytes in the same order with one wake-up per burst instead of one per response. The loop does not
 * block while an immediate is pending; a response finished early in an iteration waits for the rest
 * of that iteration's work, at most {@link MAX_HELD} - 1 other requests (slow work runs off the
 * event loop).
 *
 * Call it once per connection.
 *
 * @example
 *   server.on('connection', batchWrites);
 */
export function batchWrites(socket: Socket): void {
  const s = socket as BatchedSocket;
  s[HELD] = false;
  s[THROUGH] = false;
  s.uncork = heldUncork;
  s.destroy = flushingDestroy;
}

/**
 * Let the connection's responses go out unbatched (`true`) until told otherwise. For the pre-router
 * fast routes (mock serving, catch): captures already leave in bursts, one per group commit, and a
 * mock answers in the turn that read its request; holding them made mock serving 15-45% slower under
 * autocannon, the load generator then waiting on the service and the service on it. Set it before
 * the route runs, since a mock answers before its route returns.
 *
 * @example
 *   writeThrough(req.socket, true);
 */
export function writeThrough(socket: Socket, on: boolean): void {
  (socket as BatchedSocket)[THROUGH] = on;
}

/**
 * Whether the connection's responses currently go out unbatched (see {@link writeThrough}).
 *
 * @example
 *   isWriteThrough(req.socket) // true while a mock or catch route answers
 */
export function isWriteThrough(socket: Socket): boolean {
  return (socket as BatchedSocket)[THROUGH] === true;
}
