import { performance } from 'node:perf_hooks';

/** A query asking for a turn: it `begin`s when it gets one, or `expire`s if too little of its budget is left by then. */
export interface Ticket {
  /** A `performance.now()` reading: the query's budget ends then. */
  deadlineAt: number;
  begin(): void;
  expire(): void;
}

export interface TurnLimits {
  /** Queries running at once, all callers together. */
  running: number;
  /** Queries of one caller running at once. */
  perOwner: number;
  /** A waiting query with less of its budget left than this is expired instead of started. */
  minBudgetMs: number;
}

/** Turns for upstream queries, shared fairly between callers. */
export interface QueryTurns {
  /** Run `ticket` for `owner` now if a turn is free, else queue it (after `close`, or with too little budget left, it expires at once). */
  take(owner: string, ticket: Ticket): void;
  /** A running query of `owner` ended: its turn goes to a waiting one. */
  release(owner: string): void;
  /** A waiting ticket that ended otherwise (its own deadline, `close`) leaves the queue. */
  drop(owner: string, ticket: Ticket): void;
  /** No ticket begins any more (at shutdown). */
  close(): void;
}

/**
 * Turns for upstream DNS queries: at most `limits.running` at once and `limits.perOwner` per caller
 * (a key id or a client address), so one caller's flood of slow names cannot hold every turn. A freed
 * turn goes to the waiting caller with the fewest queries running (the longest-waiting query on a tie);
 * each caller's queries start in arrival order.
 *
 * @example
 *   const turns = createQueryTurns({ running: 128, perOwner: 32, minBudgetMs: 50 });
 *   turns.take('key_1', { deadlineAt: performance.now() + 5000, begin: send, expire: fail });
 *   // ... when the query ends: turns.release('key_1')
 */
export function createQueryTurns(limits: TurnLimits): QueryTurns {
  let running = 0;
  let closed = false;
  const runningBy = new Map<string, number>();
  /** Per caller, its waiting tickets in arrival order, each with its arrival number. */
  const waitingBy = new Map<string, Map<Ticket, number>>();
  let arrivals = 0;

  const runningOf = (owner: string) => runningBy.get(owner) ?? 0;

  function start(owner: string, ticket: Ticket): void {
    running++;
    runningBy.set(owner, runningOf(owner) + 1);
    ticket.begin();
  }

  /** The waiting caller to serve next: fewest running, then the oldest first ticket; null if none may start. */
  function nextOwner(): string | null {
    let best: string | null = null;
    let bestRunning = Infinity;
    let bestArrival = Infinity;
    for (const [owner, queue] of waitingBy) {
      const count = runningOf(owner);
      if (count >= limits.perOwner) continue;
      const arrival = queue.values().next().value as number;
      if (count < bestRunning || (count === bestRunning && arrival < bestArrival)) {
        best = owner;
        bestRunning = count;
        bestArrival = arrival;
      }
    }
    return best;
  }

  function dispatch(): void {
    while (!closed && running < limits.running) {
      const owner = nextOwner();
      if (owner === null) return;
      const queue = waitingBy.get(owner)!;
      const ticket = queue.keys().next().value as Ticket;
      queue.delete(ticket);
      if (queue.size === 0) waitingBy.delete(owner);
      if (ticket.deadlineAt - performance.now() < limits.minBudgetMs) ticket.expire();
      else start(owner, ticket);
    }
  }

  return {
    take(owner, ticket) {
      if (closed || ticket.deadlineAt - performance.now() < limits.minBudgetMs) return ticket.expire();
      if (running < limits.running && runningOf(owner) < limits.perOwner) return start(owner, ticket);
      let queue = waitingBy.get(owner);
      if (!queue) waitingBy.set(owner, (queue = new Map()));
      queue.set(ticket, arrivals++);
    },
    release(owner) {
      // Only a turn that was given can be given back.
      if (runningOf(owner) === 0) return;
      running--;
      const left = runningOf(owner) - 1;
      if (left > 0) runningBy.set(owner, left);
      else runningBy.delete(owner);
      dispatch();
    },
    drop(owner, ticket) {
      const queue = waitingBy.get(owner);
      if (!queue?.delete(ticket)) return;
      if (queue.size === 0) waitingBy.delete(owner);
    },
    close() {
      closed = true;
    },
  };
}
