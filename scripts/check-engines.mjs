// Every installed package must run on every Node that package.json's `engines.node` claims:
// our range has to lie within each dependency's own `engines.node`.
// Usage: node scripts/check-engines.mjs   (exit 1 and one line per package that does not)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';

const root = JSON.parse(readFileSync('package.json', 'utf8'));
const claimed = root.engines.node;

/** Every package.json under node_modules, scoped and nested ones included. */
function* packageFiles(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) {
      yield* packageFiles(join(dir, name));
      continue;
    }
    yield join(dir, name, 'package.json');
    yield* packageFiles(join(dir, name, 'node_modules'));
  }
}

const failures = [];
let checked = 0;
for (const file of packageFiles('node_modules')) {
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    continue;
  }
  checked++;
  const wanted = pkg.engines?.node;
  if (typeof wanted !== 'string' || semver.validRange(wanted) === null) continue;
  if (!semver.subset(claimed, wanted)) failures.push(`${pkg.name}@${pkg.version} wants node ${wanted}`);
}

for (const line of failures) console.log(line);
console.log(`${checked} packages checked against engines.node ${claimed}: ${failures.length} do not support all of it`);
process.exit(failures.length > 0 ? 1 : 0);
