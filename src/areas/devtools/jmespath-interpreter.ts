import { TreeInterpreter } from '@jmespath-community/jmespath';
import { compareCodePoints } from './code-points.js';
import { BudgetExceeded, chargeStringWorkTo, guardStringFunctions, MAX_STEPS, spend, type Budget } from './jmespath-budget.js';
import { CODE_POINT_FUNCTIONS } from './jmespath-strings.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Node = { type: string; name?: string; operator?: string; value?: unknown; children?: Array<{ name: string; value: Node }> };
interface Runtime {
  _interpreter: { visit(node: unknown, value: unknown): unknown };
  TYPE_NAME_TABLE: Record<number, string>;
  getTypeName(value: unknown): number | undefined;
  _functionTable: Record<string, { _func: (this: Runtime, args: unknown[]) => unknown; _signature: unknown[] }>;
}
interface Scope {
  inner?: Scope;
  data?: Record<string, Json>;
  withScope(data: Record<string, Json>): Scope;
}
interface BaseInterpreter {
  runtime: Runtime;
  _rootValue: Json;
  _scope: Scope;
  visit(node: Node, value: unknown): unknown;
  search(node: Node, value: Json): Json;
}

/**
 * What `&expr` evaluates to: the library's marked copy of the node (`{expref: true, ...child}`), made
 * an instance of this class so an expression reference can be told from data. The library takes any
 * object with a truthy `expref` key for one, so `sort_by(people, k)` ran an object from the data as
 * an expression; here only these instances are expression references.
 */
export class ExpressionReference {
  expref = true as const;
}
const TYPE_OBJECT = 4;
const TYPE_EXPREF = 6;

/** Longest string `pad_left`/`pad_right` may build (a bound on memory, documented on the route). */
export const MAX_PAD_WIDTH = 100_000;
const TYPE_NUMBER = 0;
const TYPE_STRING = 2;

/** Numbers numerically, strings by code point (the specification's order for sort and sort_by). */
function compareSortKeys(a: unknown, b: unknown): number {
  return typeof a === 'string' ? compareCodePoints(a, b as string) : (a as number) - (b as number);
}

const BaseClass = (TreeInterpreter as unknown as { constructor: new () => BaseInterpreter }).constructor;

/** Define a property as own data, so keys such as `__proto__` stay ordinary keys. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // Plain assignment makes an own data property for every key but `__proto__`, the only key whose
  // assignment reaches the prototype setter.
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Largest/smallest element without spreading (a spread of 100k+ arguments overflows the stack). */
function pickExtreme(list: Array<number | string>, better: (a: number | string, b: number | string) => boolean) {
  if (list.length === 0) return null;
  let best = list[0]!;
  for (const item of list) if (better(item, best)) best = item;
  return best;
}

/**
 * Function-table rows replacing library functions that use `obj[key] = …` with user keys,
 * spread huge arrays into arguments, or can allocate without bound. Called with `this` = the
 * calling runtime, so expression references see the current `let` scope.
 */
const SAFE_FUNCTIONS: Record<string, (this: Runtime, args: unknown[]) => unknown> = {
  merge(args) {
    const merged: Record<string, unknown> = {};
    for (const obj of args as Array<Record<string, unknown>>) for (const key of Object.keys(obj)) setOwn(merged, key, obj[key]);
    return merged;
  },
  // Elements whose key is null are left out (community specification: "objects for which applying
  // the expression evaluates to null" are discarded); any other non-string key is a type error.
  group_by(args) {
    const [list, expref] = args as [unknown[], unknown];
    const interpreter = this._interpreter;
    const groups: Record<string, unknown[]> = {};
    for (const item of list) {
      const key = interpreter.visit(expref, item ?? {});
      if (key === null) continue;
      if (typeof key !== 'string')
        throw new Error(`Invalid type: expected one of (string), received ${this.TYPE_NAME_TABLE[this.getTypeName(key)!]}`);
      if (Object.hasOwn(groups, key)) groups[key]!.push(item);
      else setOwn(groups, key, [item]);
    }
    return groups;
  },
  // The library sorts numbers as text ([1, 10, 9]) and strings with a comparator that never answers
  // "equal" (so ties lost their order) and builds code-point arrays on every comparison.
  sort([list]) {
    return [...(list as unknown[])].sort(compareSortKeys);
  },
  // Stable, and each key evaluated once (the library evaluated both keys in every comparison);
  // type errors as the library reports them: the first key must be a number or a string, and
  // every other key of the same type.
  sort_by(args) {
    const [list, expref] = args as [unknown[], unknown];
    if (list.length === 0) return [];
    const interpreter = this._interpreter;
    const first = interpreter.visit(expref, list[0]);
    const requiredType = this.getTypeName(first);
    if (requiredType !== TYPE_NUMBER && requiredType !== TYPE_STRING) {
      throw new Error(`Invalid type: unexpected type (${this.TYPE_NAME_TABLE[requiredType!]})`);
    }
    const keyed: Array<{ item: unknown; key: unknown }> = [{ item: list[0], key: first }];
    for (let i = 1; i < list.length; i++) {
      const key = interpreter.visit(expref, list[i]);
      const type = this.getTypeName(key);
      if (type !== requiredType)
        throw new Error(`Invalid type: expected (${this.TYPE_NAME_TABLE[requiredType]}), received ${this.TYPE_NAME_TABLE[type!]}`);
      keyed.push({ item: list[i], key });
    }
    keyed.sort((a, b) => compareSortKeys(a.key, b.key));
    const sorted: unknown[] = [];
    for (const k of keyed) sorted.push(k.item);
    return sorted;
  },
  max: ([list]) => pickExtreme(list as Array<number | string>, (a, b) => a > b),
  min: ([list]) => pickExtreme(list as Array<number | string>, (a, b) => a < b),
};

function boundPad(original: (this: Runtime, args: unknown[]) => unknown) {
  return function (this: Runtime, args: unknown[]) {
    if (typeof args[1] === 'number' && args[1] > MAX_PAD_WIDTH)
      throw new Error(`Invalid value: pad width must be at most ${MAX_PAD_WIDTH}`);
    return original.call(this, args);
  };
}

/**
 * The community library's interpreter with its prototype hazards removed: a field lookup reads
 * only own properties (`constructor` on `{}` is null, not `Object`), multi-select hashes and
 * merged objects define user keys instead of assigning them (`{__proto__: a}` is a key), and
 * variables resolve through the whole `let` scope chain even when bound to a falsy value.
 *
 * @example
 *   new SafeInterpreter().search(compile('a.constructor'), { a: {} }) // → null
 */
export class SafeInterpreter extends BaseClass {
  constructor() {
    super();
    const table = this.runtime._functionTable;
    for (const [name, fn] of Object.entries({ ...SAFE_FUNCTIONS, ...CODE_POINT_FUNCTIONS })) table[name] = { ...table[name]!, _func: fn };
    for (const name of ['pad_left', 'pad_right']) table[name] = { ...table[name]!, _func: boundPad(table[name]!._func) };
    guardStringFunctions(table);
    const typeOf = this.runtime.getTypeName.bind(this.runtime);
    this.runtime.getTypeName = (value: unknown) => {
      if (value instanceof ExpressionReference) return TYPE_EXPREF;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return TYPE_OBJECT;
      return typeOf(value);
    };
  }

  /** Steps left in this evaluation; nested `let` scopes share it. */
  budget: Budget = { left: MAX_STEPS };

  override search(node: Node, value: Json): Json {
    this.budget = { left: MAX_STEPS };
    chargeStringWorkTo(this.budget);
    return super.search(node, value);
  }

  withScope(scope: Record<string, Json>): SafeInterpreter {
    const inner = new SafeInterpreter();
    inner.runtime._functionTable = this.runtime._functionTable;
    inner._rootValue = this._rootValue;
    inner._scope = this._scope.withScope(scope);
    inner.budget = this.budget;
    return inner;
  }

  override visit(node: Node, value: unknown): unknown {
    spend(this.budget, 1);
    switch (node.type) {
      case 'Field': {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
        const obj = value as Record<string, unknown>;
        return Object.hasOwn(obj, node.name!) ? (obj[node.name!] ?? null) : null;
      }
      case 'MultiSelectHash': {
        spend(this.budget, node.children!.length);
        const collected: Record<string, unknown> = {};
        for (const child of node.children!) setOwn(collected, child.name, this.visit(child.value, value));
        return collected;
      }
      case 'Variable': {
        for (let scope: Scope | undefined = this._scope; scope; scope = scope.inner) {
          if (scope.data && Object.hasOwn(scope.data, node.name!)) return scope.data[node.name!];
        }
        throw new Error(`Error referencing undefined variable ${node.name}`);
      }
      case 'MultiSelectList':
        spend(this.budget, node.children!.length);
        return super.visit(node, value);
      case 'Flatten': {
        const flat = super.visit(node, value);
        if (Array.isArray(flat)) spend(this.budget, flat.length);
        return flat;
      }
      case 'Arithmetic': {
        // JEP 16: dividing by zero and overflow are errors (`%` by zero and `1e308 * 10` gave null).
        const result = super.visit(node, value);
        if (typeof result === 'number' && !Number.isFinite(result)) {
          throw new Error(node.operator === 'Modulo' && Number.isNaN(result) ? 'not-a-number: divide by zero' : 'not-a-number: overflow');
        }
        return result;
      }
      case 'ExpressionReference':
        return Object.assign(new ExpressionReference(), (node as { child?: object }).child);
      case 'Function': {
        let result: unknown;
        try {
          result = super.visit(node, value);
        } catch (err) {
          throw namingFunction(err, node.name!);
        }
        // As arithmetic: `sum([1e308, 1e308])` is an overflow, not the null JSON would make of Infinity.
        if (typeof result === 'number' && !Number.isFinite(result)) throw new Error(`not-a-number: ${node.name}() overflows a double`);
        return result;
      }
      default:
        return super.visit(node, value);
    }
  }
}

/** A function names a call as `name()`, as the library's arity and argument-type messages do. */
const NAMES_A_FUNCTION = /\b[A-Za-z_]\w*\(\)/;

/**
 * A runtime error raised inside a call to `name` that does not say which function failed ("Invalid
 * type: expected (string), received null" from `sort_by`'s keys) says it ("Invalid type in
 * sort_by(): …"), so the response can point at the call. Errors of inner calls already name theirs.
 */
function namingFunction(err: unknown, name: string): unknown {
  if (!(err instanceof Error) || err instanceof BudgetExceeded || err instanceof RangeError || NAMES_A_FUNCTION.test(err.message))
    return err;
  // The library's bare code when a value's type is asked of an expression reference (`type(&a)`).
  if (err.message === 'invalid-type') err.message = `Invalid type in ${name}(): an expression reference (&…) is not a JSON value`;
  else {
    const kind = /^(Invalid \w+): /.exec(err.message);
    err.message = kind ? `${kind[1]} in ${name}(): ${err.message.slice(kind[0].length)}` : `${err.message} in ${name}()`;
  }
  return err;
}

/** Names of every function the interpreter knows (an expression naming another one is refused). */
export function listFunctionNames(interpreter: SafeInterpreter): Set<string> {
  return new Set(Object.keys(interpreter.runtime._functionTable));
}
