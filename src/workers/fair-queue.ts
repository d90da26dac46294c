/** A waiting job: its number (older jobs have smaller ones) and whose it is. */
export interface QueuedJob {
  id: number;
  caller: string;
}

export interface FairQueueLimits {
  /** Jobs waiting in all. */
  maxQueue: number;
  /** Jobs of one caller waiting. */
  maxQueuePerCaller: number;
  /** Jobs of one caller running at once; its other jobs wait. */
  perCaller: number;
}

/** Jobs waiting for a worker, per caller, handed out so that no caller can hold every worker or every place. */
export interface FairQueue<Job extends QueuedJob> {
  /** Jobs waiting in all. */
  size(): number;
  /**
   * Make room for a job of `caller`: false when it may not wait. When the queue is full, the newest
   * job of the caller with the most waiting is taken out (and passed to `evict`, to be refused) if
   * `caller` has fewer, so a few callers filling the queue cannot shut the others out.
   */
  admit(caller: string, evict: (job: Job) => void): boolean;
  add(job: Job): void;
  /** Take `job` out; false if it was not waiting. */
  remove(job: Job): boolean;
  /** The next job to start: the oldest of the waiting caller with the fewest running, under its share. */
  takeNext(): Job | undefined;
  /** Waiting jobs that could start now, each caller's counted up to its free share. */
  startable(): number;
  /** Count a job of `caller` as running (`+1`) or done (`-1`). */
  countRunning(caller: string, change: 1 | -1): void;
  /** Take out every waiting job. */
  takeAll(): Job[];
}

/**
 * The waiting room of a worker pool. Without limits per caller (every job of one caller, or
 * `perCaller` and `maxQueuePerCaller` at their totals) it is a plain first-in, first-out queue.
 *
 * @example
 *   const queue = createFairQueue<Job>({ maxQueue: 64, maxQueuePerCaller: 16, perCaller: 3 });
 *   if (queue.admit('key_1', (job) => job.reject(busy()))) queue.add(job);
 *   const next = queue.takeNext(); // then queue.countRunning(next.caller, 1)
 */
export function createFairQueue<Job extends QueuedJob>(limits: FairQueueLimits): FairQueue<Job> {
  /** Waiting jobs per caller, oldest first. */
  const waiting = new Map<string, Job[]>();
  const running = new Map<string, number>();
  let count = 0;
  const runningOf = (caller: string) => running.get(caller) ?? 0;

  function remove(job: Job): boolean {
    const jobs = waiting.get(job.caller);
    const index = jobs?.indexOf(job) ?? -1;
    if (index < 0) return false;
    jobs!.splice(index, 1);
    if (jobs!.length === 0) waiting.delete(job.caller);
    count--;
    return true;
  }

  return {
    size: () => count,
    admit(caller, evict) {
      const queued = waiting.get(caller)?.length ?? 0;
      if (queued >= limits.maxQueuePerCaller) return false;
      if (count < limits.maxQueue) return true;
      let longest: Job[] | undefined;
      for (const jobs of waiting.values()) if (!longest || jobs.length > longest.length) longest = jobs;
      if (!longest || longest.length <= queued + 1) return false;
      const newest = longest[longest.length - 1]!;
      remove(newest);
      evict(newest);
      return true;
    },
    add(job) {
      const jobs = waiting.get(job.caller);
      if (jobs) jobs.push(job);
      else waiting.set(job.caller, [job]);
      count++;
    },
    remove,
    takeNext() {
      let best: Job | undefined;
      let bestRunning = Infinity;
      for (const [caller, [oldest]] of waiting) {
        const n = runningOf(caller);
        if (n >= limits.perCaller || n > bestRunning) continue;
        if (n < bestRunning || oldest!.id < best!.id) {
          best = oldest;
          bestRunning = n;
        }
      }
      if (best) remove(best);
      return best;
    },
    startable() {
      let n = 0;
      for (const [caller, jobs] of waiting) n += Math.min(jobs.length, Math.max(0, limits.perCaller - runningOf(caller)));
      return n;
    },
    countRunning(caller, change) {
      const n = runningOf(caller) + change;
      if (n > 0) running.set(caller, n);
      else running.delete(caller);
    },
    takeAll() {
      const all = [...waiting.values()].flat().sort((a, b) => a.id - b.id);
      waiting.clear();
      count = 0;
      return all;
    },
  };
}
