import { generateMockData, planMockData } from '../src/areas/devtools/mock-data/generate.js';
import { createMockDataPool } from '../src/areas/devtools/mock-data/mock-data-pool.js';
import { listFieldTypes } from '../src/areas/devtools/mock-data/field-types.js';
import { isDeepStrictEqual } from 'node:util';

const pool = createMockDataPool();
const types = listFieldTypes() as any;
const names = (Array.isArray(types) ? types : []).map((t: any) => t.name);
console.log('types', names.length);
const skip = new Set(['enum', 'constant', 'regex']);
const fields: any[] = names.filter((n: string) => !skip.has(n)).map((n: string) => ({ name: n, type: n, options: { nullable: true, null_ratio: 0.1 } }));
fields.push({ name: '__proto__', type: 'enum', options: { values: [{ '__proto__': { a: 1 }, b: 2 }, -0, [1, { constructor: 1 }], 'x'] } });
fields.push({ name: '1', type: 'constant', options: { value: { '2': 1, a: 2, '0': 3 } } });
fields.push({ name: 'constructor', type: 'regex', options: { pattern: '[a-z]{3}\\d' } });
fields.push({ name: 'toJSON', type: 'word' });
for (const locale of ['en_US', 'de_DE', 'ja_JP', 'az_AZ']) {
  for (const fmt of ['json', 'csv', 'sql', 'xml'] as const) {
    const req = { fields, rows: 30, seed: 12345, locale, outputFormat: fmt };
    let inline: any, worker: any;
    try { inline = generateMockData(req); } catch (e: any) { inline = { err: e.code, msg: e.message, errors: e.errors }; }
    try { worker = await pool.run(req); } catch (e: any) { worker = { err: e.code, msg: e.message, errors: e.errors }; }
    const a = JSON.stringify(inline), b = JSON.stringify(worker);
    console.log(locale, fmt, a === b ? 'same' : 'DIFF', a.slice(0, 150));
    if (a !== b) { for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) { console.log(a.slice(i - 100, i + 100)); console.log(b.slice(i - 100, i + 100)); break; } }
  }
}
await pool.close();
