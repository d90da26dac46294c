import { isIdnEmail } from '@hyperjump/json-schema-formats';
import { isIdnEmailAddress } from '../src/areas/devtools/json-schema-idn-formats.js';
const [which, s] = [process.argv[2], process.argv[3]];
const t = performance.now();
const r = which === 'lib' ? isIdnEmail(s) : isIdnEmailAddress(s);
console.log(which, JSON.stringify(s).slice(0, 40), s.length, r, (performance.now() - t).toFixed(1), 'ms');
