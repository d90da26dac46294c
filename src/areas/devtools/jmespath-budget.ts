import { estimateJsonChars } from '../../lib/json-size.js';

/**
 * Work and memory bounds for one JMESPath evaluation. Multi-select lists, projections and
 * `to_string`/`join` can each multiply the size of what came before, so a short expression could
 * otherwise build gigabytes from 2 MiB of data: every step is counted and strings are measured
 * before they are built.
 */

/** Interpreter steps (node visits plus multi-select and flatten elements) per evaluation. */
export const MAX_STEPS = 10_000_000;
/** Longest string a function may build. */
export const MAX_STRING_CHARS = 10_000_000;

/** Thrown when an evaluation passes a bound; answered as 422. */
export class BudgetExceeded extends Error {
  constructor(what: string) {
    super(what);
    this.name = 'BudgetExceeded';
  }
}

/** Steps left in the current evaluation (shared by the interpreters of nested `let` scopes). */
export interface Budget {
  left: number;
}

/**
 * Spend `steps` from the budget or throw.
 *
 * @example
 *   spend({ left: 1 }, 2) // throws BudgetExceeded
 */
export function spend(budget: Budget, steps: number): void {
  budget.left -= steps;
  if (budget.left < 0) throw new BudgetExceeded(`the expression needs more than ${MAX_STEPS} evaluation steps`);
}

function checkChars(chars: number, fn: string): void {
  if (chars > MAX_STRING_CHARS) throw new BudgetExceeded(`${fn}() would build a string longer than ${MAX_STRING_CHARS} characters`);
}

/** The running evaluation's budget, for work done inside functions (evaluation is synchronous: one at a time). */
let active: Budget = { left: MAX_STEPS };

/**
 * Charge the work of string functions to `budget` from now on (set at the start of each evaluation).
 * Per-call bounds alone let a projection repeat a large call on every element: what functions
 * read and build is charged to the same step budget as the nodes, so one evaluation reads at
 * most ~640 MB and builds at most ~20 million characters (or pieces) in all.
 */
export function chargeStringWorkTo(budget: Budget): void {
  active = budget;
}

/** Reading `units` UTF-16 units: one step per 64. */
export function chargeScan(units: number): void {
  spend(active, Math.ceil(units / 64));
}

/** Building `units` characters (or array elements): one step per 2, so an evaluation builds ~20 million at most. */
export function chargeBuilt(units: number): void {
  spend(active, Math.ceil(units / 2));
}

/** Pre-checks run before the library function of the same name: each estimates the string it would build. */
const STRING_GUARDS: Record<string, (args: unknown[]) => void> = {
  to_string: ([value]) => {
    if (typeof value === 'string') return;
    const chars = estimateJsonChars(value, MAX_STRING_CHARS);
    checkChars(chars, 'to_string');
    chargeBuilt(chars);
  },
  join: ([glue, list]) => {
    if (!Array.isArray(list) || typeof glue !== 'string') return;
    let chars = glue.length * list.length;
    for (const item of list) chars += typeof item === 'string' ? item.length : 0;
    checkChars(chars, 'join');
    chargeBuilt(chars);
  },
  replace: ([subject, search, by]) => {
    if (typeof subject !== 'string' || typeof search !== 'string' || typeof by !== 'string') return;
    chargeScan(subject.length);
    const occurrences = search === '' ? subject.length + 1 : subject.split(search).length - 1;
    const chars = subject.length + occurrences * Math.max(0, by.length - search.length);
    checkChars(chars, 'replace');
    chargeBuilt(chars);
  },
};

/**
 * Wrap the string-building functions of a function table with their size pre-checks.
 *
 * @example
 *   guardStringFunctions(runtime._functionTable)
 */
export function guardStringFunctions<This>(table: Record<string, { _func: (this: This, args: unknown[]) => unknown }>): void {
  for (const [name, guard] of Object.entries(STRING_GUARDS)) {
    const row = table[name];
    if (!row) continue;
    const original = row._func;
    table[name] = {
      ...row,
      _func(this: This, args: unknown[]) {
        guard(args);
        return original.call(this, args);
      },
    };
  }
}
