import { spend } from './jmespath-budget.js';
import { ExpressionReference, namingFunction, setOwn, type SafeInterpreter } from './jmespath-interpreter.js';

/**
 * JMESPath expressions compiled to closures: the common node types evaluate without the tree
 * interpreter's two `switch (node.type)` per node (its reads of `node.type` over a dozen node shapes
 * are megamorphic). Each closure does what {@link SafeInterpreter.visit} does for its node, spending
 * the same steps; `let`, variables, arithmetic, ternaries and slices are handed to the interpreter
 * (with their whole subtree), as are expression references when a function runs them.
 */
export type Evaluate = (value: unknown) => unknown;

interface AstNode {
  type: string;
  name?: string;
  value?: unknown;
  left?: AstNode;
  right?: AstNode;
  child?: AstNode;
  condition?: AstNode;
  children?: AstNode[] | Array<{ name: string; value: AstNode }>;
}

// The library's own equality and truth (src/utils), which its interpreter uses: the same answers.
const isPlainObject = (obj: unknown): boolean => obj !== null && Object.prototype.toString.call(obj) === '[object Object]';

function strictDeepEqual(first: unknown, second: unknown): boolean {
  if (first === second) return true;
  if (typeof first !== typeof second) return false;
  if (Array.isArray(first) && Array.isArray(second)) {
    if (first.length !== second.length) return false;
    for (let i = 0; i < first.length; i += 1) if (!strictDeepEqual(first[i], second[i])) return false;
    return true;
  }
  if (isPlainObject(first) && isPlainObject(second)) {
    const firstEntries = Object.entries(first as object);
    const secondKeys = new Set(Object.keys(second as object));
    if (firstEntries.length !== secondKeys.size) return false;
    for (const [key, value] of firstEntries) {
      if (!strictDeepEqual(value, (second as Record<string, unknown>)[key])) return false;
      secondKeys.delete(key);
    }
    return secondKeys.size === 0;
  }
  return false;
}

/** JMESPath's false values: null, false, "", [] and {}. */
function isFalse(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return true;
  if (typeof value === 'string') return value === '';
  if (typeof value === 'object') return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
  return false;
}

/** A projection's right side applied to each element; null results are left out. */
function project(elements: unknown[], right: Evaluate): unknown[] {
  const collected: unknown[] = [];
  for (const element of elements) {
    const current = right(element);
    if (current !== null) collected.push(current);
  }
  return collected;
}

/**
 * Compile `ast` (from the library's `compile`) to a closure run by {@link SafeInterpreter.run}.
 * Recursive like the tree: an AST too deep for the stack throws a RangeError here, as the
 * interpreter would when evaluating it.
 *
 * @example
 *   const evaluate = compileAst(compile('people[?age > `20`].name'), interpreter);
 *   interpreter.run(evaluate, data)
 */
export function compileAst(ast: object, interpreter: SafeInterpreter): Evaluate {
  const it = interpreter;
  const compileNode = (node: AstNode): Evaluate => {
    switch (node.type) {
      case 'Field': {
        const name = node.name!;
        return (value) => {
          spend(it.budget, 1);
          if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
          return Object.hasOwn(value, name) ? ((value as Record<string, unknown>)[name] ?? null) : null;
        };
      }
      case 'Subexpression': {
        const left = compileNode(node.left!);
        const right = compileNode(node.right!);
        return (value) => {
          spend(it.budget, 1);
          const result = left(value);
          return result != null ? (right(result) ?? null) : null;
        };
      }
      case 'IndexExpression':
      case 'Pipe': {
        const left = compileNode(node.left!);
        const right = compileNode(node.right!);
        return (value) => {
          spend(it.budget, 1);
          return right(left(value));
        };
      }
      case 'Index': {
        const index = node.value as number;
        return (value) => {
          spend(it.budget, 1);
          if (!Array.isArray(value)) return null;
          return value[index < 0 ? value.length + index : index] ?? null;
        };
      }
      case 'Projection': {
        // A slice projects over a string's characters too (`'abc'[::-1]`): that case stays the interpreter's.
        if (node.left!.type === 'IndexExpression' && node.left!.right!.type === 'Slice') break;
        const left = compileNode(node.left!);
        const right = compileNode(node.right!);
        return (value) => {
          spend(it.budget, 1);
          const base = left(value);
          return Array.isArray(base) ? project(base, right) : null;
        };
      }
      case 'ValueProjection': {
        const left = compileNode(node.left!);
        const right = compileNode(node.right!);
        return (value) => {
          spend(it.budget, 1);
          const base = left(value);
          if (base === null || typeof base !== 'object' || Array.isArray(base)) return null;
          return project(Object.values(base), right);
        };
      }
      case 'FilterProjection': {
        const left = compileNode(node.left!);
        const right = compileNode(node.right!);
        const condition = compileNode(node.condition!);
        return (value) => {
          spend(it.budget, 1);
          const base = left(value);
          if (!Array.isArray(base)) return null;
          const results: unknown[] = [];
          for (const element of base) {
            if (isFalse(condition(element))) continue;
            const result = right(element);
            if (result !== null) results.push(result);
          }
          return results;
        };
      }
      case 'Comparator': {
        const left = compileNode(node.left!);
        const right = compileNode(node.right!);
        const ordering = ORDERINGS[node.name!];
        if (node.name === 'EQ' || node.name === 'NE') {
          const equal = node.name === 'EQ';
          return (value) => {
            spend(it.budget, 1);
            return strictDeepEqual(left(value), right(value)) === equal;
          };
        }
        if (!ordering) break;
        return (value) => {
          spend(it.budget, 1);
          const first = left(value);
          const second = right(value);
          return typeof first === 'number' && typeof second === 'number' ? ordering(first, second) : null;
        };
      }
      case 'Flatten': {
        const child = compileNode(node.child!);
        return (value) => {
          spend(it.budget, 1);
          const original = child(value);
          if (!Array.isArray(original)) return null;
          const flat = original.flat();
          spend(it.budget, flat.length);
          return flat;
        };
      }
      case 'Root':
        return () => {
          spend(it.budget, 1);
          return it._rootValue;
        };
      case 'Current':
      case 'Identity':
        return (value) => {
          spend(it.budget, 1);
          return value;
        };
      case 'Literal': {
        const literal = node.value;
        return () => {
          spend(it.budget, 1);
          return literal;
        };
      }
      case 'MultiSelectList': {
        const children = (node.children as AstNode[]).map(compileNode);
        return (value) => {
          spend(it.budget, 1 + children.length);
          const collected: unknown[] = [];
          for (const child of children) collected.push(child(value));
          return collected;
        };
      }
      case 'MultiSelectHash': {
        const pairs = node.children as Array<{ name: string; value: AstNode }>;
        const names = pairs.map((pair) => pair.name);
        const values = pairs.map((pair) => compileNode(pair.value));
        return (value) => {
          spend(it.budget, 1 + values.length);
          const collected: Record<string, unknown> = {};
          for (let i = 0; i < values.length; i++) setOwn(collected, names[i]!, values[i]!(value));
          return collected;
        };
      }
      case 'OrExpression': {
        const left = compileNode(node.left!);
        const right = compileNode(node.right!);
        return (value) => {
          spend(it.budget, 1);
          const result = left(value);
          return isFalse(result) ? right(value) : result;
        };
      }
      case 'AndExpression': {
        const left = compileNode(node.left!);
        const right = compileNode(node.right!);
        return (value) => {
          spend(it.budget, 1);
          const result = left(value);
          return isFalse(result) ? result : right(value);
        };
      }
      case 'NotExpression': {
        const child = compileNode(node.child!);
        return (value) => {
          spend(it.budget, 1);
          return isFalse(child(value));
        };
      }
      case 'ExpressionReference': {
        const child = node.child as object;
        return () => {
          spend(it.budget, 1);
          return Object.assign(new ExpressionReference(), child);
        };
      }
      case 'Function': {
        const name = node.name!;
        const args = (node.children as AstNode[]).map(compileNode);
        return (value) => {
          spend(it.budget, 1);
          // As the interpreter: an error while evaluating the arguments is named after this call too.
          try {
            const resolved: unknown[] = [];
            for (const arg of args) resolved.push(arg(value));
            return it.runtime.callFunction(name, resolved);
          } catch (err) {
            throw namingFunction(err, name);
          }
        };
      }
    }
    // Everything else (and anything a later library version adds): the interpreter, which spends its own steps.
    return interpreted(it, node);
  };
  return compileNode(ast as AstNode);
}

/**
 * A node the interpreter evaluates. A function of its own, so that only these closures hold their
 * node: one made inside `compileNode` would keep its `node` in the context every closure made
 * there shares, and with it the whole tree.
 */
function interpreted(interpreter: SafeInterpreter, node: AstNode): Evaluate {
  return (value) => interpreter.visit(node as never, value);
}

const ORDERINGS: Record<string, ((a: number, b: number) => boolean) | undefined> = {
  GT: (a, b) => a > b,
  GTE: (a, b) => a >= b,
  LT: (a, b) => a < b,
  LTE: (a, b) => a <= b,
};
