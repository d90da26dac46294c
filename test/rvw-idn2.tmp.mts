import { isIdnEmail } from '@hyperjump/json-schema-formats';
import { isIdnEmailAddress, isIdnHost } from '../src/areas/devtools/json-schema-idn-formats.js';
const which = process.argv[2]; const n = Number(process.argv[3]);
const s = which === 'u' ? 'ü'.repeat(n) : '@'.repeat(n);
for (const [name, fn] of [['lib', isIdnEmail], ['new', isIdnEmailAddress], ['host', isIdnHost]] as const) {
  const t = performance.now(); let r: unknown; try { r = fn(s); } catch (e: any) { r = 'THROW ' + e.message; }
  console.log(which, n, name, r, (performance.now() - t).toFixed(1));
}
