import { Socket } from 'node:net';

const realUncork = Socket.prototype.uncork;
const realDestroy = Socket.prototype.destroy;
const BATCHED = Symbol('devutil.batchedWrites');
const HELD = Symbol('devutil.heldWrites');

type BatchedSocket = Socket & { [BATCHED]?: true; [HELD]?: boolean };

/** Sockets whose last uncork is held until the end of this event-loop iteration. */
let held: BatchedSocket[] = [];
let scheduled = false;

function flush(): void {
  scheduled = false;
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
 * this event-loop iteration, so every response finished while handling one batch of ready sockets
 * leaves in one burst of writes.
 */
function heldUncork(this: BatchedSocket): void {
  const state = (this as unknown as { _writableState: { corked: number } })._writableState;
  if (state.corked !== 1) {
    realUncork.call(this);
    return;
  }
  if (this[HELD]) return;
  this[HELD] = true;
  held.push(this);
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
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
 * writer. Holding the socket corked until the check phase (`setImmediate`, which runs right after
 * the poll phase that handled the ready sockets) sends the same bytes in the same order with one
 * wake-up per burst instead of one per response, and adds no wait: the loop does not block while
 * an immediate is pending.
 *
 * @example
 *   server.on('connection', batchWrites);
 */
export function batchWrites(socket: Socket): void {
  const s = socket as BatchedSocket;
  if (s[BATCHED]) return;
  s[BATCHED] = true;
  s[HELD] = false;
  s.uncork = heldUncork;
  s.destroy = flushingDestroy;
}
