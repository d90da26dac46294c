// Which of POST /v1/array-ops's `options` each operation reads (its OpenAPI description says so:
// sort takes key and reverse, chunk and sample a size, flatten a depth, sample a seed), and the
// form's option values turned into the `options` object and back.

/** The options each operation takes, in the order the form shows them. */
export const OPERATION_OPTIONS: Record<string, string[]> = {
  sort: ['key', 'reverse'],
  chunk: ['size'],
  flatten: ['depth'],
  sample: ['size', 'seed'],
};

/** The option's label for an operation: `size` is the chunk size or the sample size. */
export function optionLabel(operation: string, option: string): string {
  const labels: Record<string, string> = { key: 'Sort key', reverse: 'Descending', depth: 'Depth', seed: 'Seed' };
  if (option === 'size') return operation === 'chunk' ? 'Chunk size' : 'Sample size';
  return labels[option] ?? option;
}

/** The form's values of the options: text for a text or number field, a boolean for a checkbox. */
export type OptionValues = Record<string, string | boolean>;

/**
 * The values of an `options` JSON text (unreadable or not an object: none).
 *
 * @example
 *   readOptions('{"key":"age","reverse":true}') // { key: 'age', reverse: true }
 */
export function readOptions(text: string | boolean | undefined): OptionValues {
  if (typeof text !== 'string' || text.trim() === '') return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).map(([name, value]) => [
        name,
        typeof value === 'boolean' ? value : typeof value === 'string' ? value : String(value),
      ]),
    );
  } catch {
    return {};
  }
}

/**
 * The `options` JSON text of `operation`: only the options it takes, empty ones left out; '' when
 * none is set (the request then has no `options`). Numbers go as numbers, so the API judges them.
 *
 * @example
 *   writeOptions('chunk', { size: '2', key: 'age' }, new Set(['size'])) // '{"size":2}'
 */
export function writeOptions(operation: string, values: OptionValues, numeric: Set<string>): string {
  const options: Record<string, unknown> = {};
  for (const name of OPERATION_OPTIONS[operation] ?? []) {
    const value = values[name];
    if (value === undefined || value === '' || value === false) continue;
    options[name] = typeof value === 'string' && numeric.has(name) && Number.isFinite(Number(value)) ? Number(value) : value;
  }
  return Object.keys(options).length === 0 ? '' : JSON.stringify(options);
}

/**
 * The option an error about `options` names (`options.size must be >= 1` → `size`), if one of `names`.
 *
 * @example
 *   optionOfError('Invalid body: options.size must be >= 1.', ['size', 'seed']) // 'size'
 */
export function optionOfError(message: string, names: string[]): string | undefined {
  const named = /\boptions\.(\w+)/.exec(message)?.[1];
  return named !== undefined && names.includes(named) ? named : undefined;
}
