import { isIdnEmail, isIdn, isAsciiIdn } from '@hyperjump/json-schema-formats';
import { isIdnEmailAddress, isIdnHost } from '../src/areas/devtools/json-schema-idn-formats.js';
const origLog = console.log; let logged = 0; console.log = () => { logged++; };
const cases = ['a@[x:b@c]', 'a@[IPv6:::1]', '"a@b"@example.com', 'x@exa_mple.com', 'a@例え.テスト', 'a@xn--a.com', 'a@-x.com', 'joe@a..b', 'a@'];
for (const c of cases) { logged = 0; const lib = isIdnEmail(c); const ll = logged; logged = 0; const mine = isIdnEmailAddress(c); origLog(JSON.stringify(c), 'lib', lib, 'logs', ll, 'new', mine, 'logs', logged); }
for (const s of ['a'.repeat(1_000_000), 'a@' + 'b.'.repeat(300_000) + 'c', 'ü'.repeat(500_000), '@'.repeat(500000)]) {
  let t = performance.now(); const lib = isIdnEmail(s); const tl = performance.now() - t;
  t = performance.now(); const mine = isIdnEmailAddress(s); const tm = performance.now() - t;
  origLog(s.slice(0, 10), s.length, 'lib', lib, tl.toFixed(1), 'new', mine, tm.toFixed(1));
}
