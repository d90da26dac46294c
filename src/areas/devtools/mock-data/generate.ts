import { randomBytes } from 'node:crypto';
import { allLocales, Faker, type LocaleDefinition } from '@faker-js/faker';
import { DevutilError } from '../../../errors.js';
import { MAX_OUTPUT_CHARS, measureValue, OptionError, REFERENCE_DATE, type ColumnKind, type ValueGenerator } from './field-type.js';
import { fakerLocaleChain } from './locales.js';
import { findFieldType, resolveOptions } from './options.js';
import { checkOutputNames, renderMockData, type OutputFormat } from './render.js';
import type { SqlDialect, SqlOptions } from './render-sql.js';

export interface MockField {
  name: string;
  type: string;
  options?: unknown;
}

export interface MockDataRequest {
  fields: MockField[];
  rows: number;
  outputFormat?: OutputFormat;
  locale?: string;
  seed?: number;
  tableName?: string;
  /** SQL output only: the dialect (default sqlite) and whether a `CREATE TABLE` comes first (default true). */
  dialect?: SqlDialect;
  createTable?: boolean;
}

/** A field's generator with the column kind of its values (for SQL's `CREATE TABLE`). */
type FieldGenerator = ValueGenerator & { column: ColumnKind };

export interface MockDataResult {
  /** Row objects (null-prototype, keys in field order) for JSON; the rendered text otherwise. */
  data: Record<string, unknown>[] | string;
  rows: number;
  fields: number;
  outputFormat: OutputFormat;
}

const definitions = new Map<string, LocaleDefinition>();

/**
 * The faker definitions of a locale chain, merged once and cached (a Faker built from one merged
 * definition costs about half of one built from the chain).
 */
function definitionFor(chain: string[]): LocaleDefinition {
  const cached = definitions.get(chain[0]!);
  if (cached) return cached;
  const merged = new Faker({ locale: chain.map((x) => allLocales[x as keyof typeof allLocales]) }).rawDefinitions;
  definitions.set(chain[0]!, merged);
  return merged;
}

const fakers = new Map<string, Faker>();

/**
 * The Faker of a locale written `ll_CC` (or `ll-CC`), one per locale for the whole process and never
 * the shared global instance. Building one binds every method of every module and seeds a Mersenne
 * Twister (about 190 µs, a third of a 10-row request), so it is built once. Its state is its
 * generator's and its reference date, and the caller sets both before each use (`planMockData`);
 * generation is synchronous, so no two requests ever share it at once. Unknown locale → 422
 * `validation_error` on `locale`.
 *
 * @example
 *   const faker = fakerFor('de_DE');
 *   faker.setDefaultRefDate('2026-01-01T00:00:00.000Z');
 *   faker.seed(42);
 *   faker.person.firstName(); // a German first name, the same for seed 42 in every process
 */
function fakerFor(locale: string): Faker {
  const chain = fakerLocaleChain(locale);
  let faker = fakers.get(chain[0]!);
  if (!faker) {
    faker = new Faker({ locale: definitionFor(chain) });
    fakers.set(chain[0]!, faker);
  }
  return faker;
}

/** Seed faker's Mersenne Twister with all 53 bits of the seed (faker.seed(n) keeps only 32). */
function seedFaker(faker: Faker, seed: number | undefined): void {
  if (seed === undefined) {
    const bytes = randomBytes(8);
    faker.seed([bytes.readUInt32LE(0), bytes.readUInt32LE(4)]);
    return;
  }
  const magnitude = Math.abs(seed);
  faker.seed([magnitude % 2 ** 32, Math.floor(magnitude / 2 ** 32), seed < 0 ? 1 : 0]);
}

/** The 422 for a field whose values cannot be drawn with its options in this locale (Faker's own message, first line). */
function cannotGenerate(err: unknown, index: number, field: MockField): DevutilError {
  if (err instanceof DevutilError) return err;
  const why = String((err as Error)?.message ?? err)
    .split('\n')[0]!
    .trim();
  const message = `cannot be generated with these options in this locale (${why})`;
  return new DevutilError('validation_error', `fields[${index}] (${field.type}) ${message}.`, {
    errors: [{ path: `fields[${index}]`, message }],
    cause: err,
  });
}

/** One 422 for every problem found (one `errors` entry per bad field); a lone problem keeps its own detail. */
function allProblems(problems: DevutilError[]): DevutilError {
  if (problems.length === 1) return problems[0]!;
  const errors = problems.flatMap((p) => p.errors ?? []);
  return new DevutilError('validation_error', `Invalid request: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}.`, { errors });
}

/** Runs `check`, keeping a 422 it throws in `problems` (any other error goes on). */
function collecting<T>(problems: DevutilError[], check: () => T): T | undefined {
  try {
    return check();
  } catch (err) {
    if (!(err instanceof DevutilError) || err.code !== 'validation_error') throw err;
    problems.push(err);
    return undefined;
  }
}

/** One generator per field, nullable wrapping included, each with its cost; every field's option problems together become one 422. */
function createGenerators(faker: Faker, fields: MockField[], problems: DevutilError[]): FieldGenerator[] {
  const seen = new Set<string>();
  const generators = fields.map((field, i) => collecting(problems, () => createGenerator(faker, field, i, seen)));
  if (problems.length > 0) throw allProblems(problems);
  return generators as FieldGenerator[];
}

function createGenerator(faker: Faker, field: MockField, i: number, seen: Set<string>): FieldGenerator {
  if (seen.has(field.name)) {
    // The detail starts with the field's path, as the other field errors do, so a form can place it.
    throw new DevutilError('validation_error', `fields[${i}].name "${field.name}" is a duplicate: each field name must be unique.`, {
      errors: [{ path: `fields[${i}].name`, message: 'must be unique' }],
    });
  }
  seen.add(field.name);
  const type = findFieldType(field.type, `fields[${i}].type`);
  const options = resolveOptions(type, field.options, `fields[${i}].options`);
  let created: ValueGenerator;
  try {
    created = type.create(faker, options);
  } catch (err) {
    if (!(err instanceof OptionError)) throw cannotGenerate(err, i, field);
    const path = `fields[${i}].options.${err.option}`;
    throw new DevutilError('validation_error', `${path} ${err.message}.`, { errors: [{ path, message: err.message }] });
  }
  // Faker refuses some combinations only when drawing (a locale without that data, an integer
  // range with no integer in it): the field's fault, answered as a 422 on it.
  const generate: ValueGenerator = (row) => {
    try {
      return created(row);
    } catch (err) {
      throw cannotGenerate(err, i, field);
    }
  };
  const cost = created.cost;
  const column = typeof type.column === 'function' ? type.column(options) : (type.column ?? 'text');
  if (!options.nullable) return Object.assign(generate, { cost, minChars: created.minChars, column });
  const ratio = options.null_ratio as number;
  return Object.assign((row: number) => (faker.datatype.boolean({ probability: ratio }) ? null : generate(row)), { cost, column });
}

/** A request checked and ready to draw: what it will cost, and the drawing itself. */
export interface MockDataPlan {
  /** What drawing every value costs, in typical Faker calls (about 5-8 µs each): rows times the fields' costs. */
  cost: number;
  /** Draw and render. Call it at once: the plan holds the locale's Faker, seeded for this request. */
  run(): MockDataResult;
}

/**
 * Check a request (every option problem is a 422 here, before anything is drawn) and plan it, so
 * the caller can decide where the drawing runs. With a `seed` the output is identical across
 * calls, processes and restarts (the locale's Faker reseeded in full for each call, fixed
 * reference date, pinned faker version); without one it is random.
 *
 * @example
 *   const plan = planMockData({ fields: [{ name: 'who', type: 'name' }], rows: 2, seed: 7 });
 *   plan.cost; // 2
 *   plan.run(); // { data: [{ who: '...' }, { who: '...' }], rows: 2, fields: 1, outputFormat: 'json' }
 */
export function planMockData(request: MockDataRequest): MockDataPlan {
  const problems: DevutilError[] = [];
  // An unknown locale is one problem among the fields' (checked under en_US meanwhile).
  const faker = collecting(problems, () => fakerFor(request.locale ?? 'en_US')) ?? fakerFor('en_US');
  faker.setDefaultRefDate(REFERENCE_DATE);
  // Every call seeds it: nothing of an earlier call's draws carries over.
  seedFaker(faker, request.seed);
  const names = request.fields.map((f) => f.name);
  const nameErrors = checkOutputNames(request.outputFormat ?? 'json', names, sqlOptions(request));
  if (nameErrors.length > 0)
    problems.push(
      new DevutilError(
        'validation_error',
        `Invalid names for this output: ${nameErrors.map((e) => `${e.path} ${e.message}`).join('; ')}.`,
        { errors: nameErrors },
      ),
    );
  const generators = createGenerators(faker, request.fields, problems);
  const cost = request.rows * generators.reduce((sum, generate) => sum + (generate.cost ?? 1), 0);
  // Output that must pass the bound whatever is drawn (50 fields of x{1000} × 1000 rows) is refused
  // at once, not after seconds of drawing.
  if (request.rows * generators.reduce((sum, generate) => sum + (generate.minChars ?? 0), 0) > MAX_OUTPUT_CHARS) throw outputTooLarge();
  return { cost, run: () => drawRows(request, generators) };
}

/**
 * Generate `rows` rows of mock data and render them (see {@link planMockData}).
 *
 * @example
 *   generateMockData({ fields: [{ name: 'id', type: 'sequence' }, { name: 'who', type: 'name' }], rows: 2, seed: 7 })
 *   // { data: [{ id: 1, who: '...' }, { id: 2, who: '...' }], rows: 2, fields: 2, outputFormat: 'json' }
 */
export function generateMockData(request: MockDataRequest): MockDataResult {
  return planMockData(request).run();
}

const outputTooLarge = () =>
  new DevutilError('validation_error', `The output would exceed ${MAX_OUTPUT_CHARS} characters; ask for fewer rows or shorter fields.`, {
    errors: [{ path: 'rows', message: 'too much data for these fields' }],
  });

function sqlOptions(request: MockDataRequest): SqlOptions {
  return { tableName: request.tableName ?? 'mock_data', dialect: request.dialect ?? 'sqlite', createTable: request.createTable ?? true };
}

function drawRows(request: MockDataRequest, generators: FieldGenerator[]): MockDataResult {
  const table: unknown[][] = [];
  let size = 0;
  for (let row = 0; row < request.rows; row++) {
    const values = generators.map((generate) => generate(row));
    for (const v of values) size += measureValue(v);
    if (size > MAX_OUTPUT_CHARS) throw outputTooLarge();
    table.push(values);
  }
  const outputFormat = request.outputFormat ?? 'json';
  const columns = request.fields.map((f, i) => ({ name: f.name, kind: generators[i]!.column }));
  const data = renderMockData(outputFormat, columns, table, sqlOptions(request));
  return { data, rows: request.rows, fields: columns.length, outputFormat };
}
