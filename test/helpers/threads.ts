import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Threads of this process (Linux: /proc/self/task), to see worker threads start and stop. */
export const threadCount = (): number => readdirSync('/proc/self/task').length;

/** Poll `check` every 20 ms for up to `ms`; whether it came true. */
export async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) if (check()) return true;
  return check();
}
