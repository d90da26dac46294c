// Where one request's time goes: records the service under load with Linux perf (JIT frames named
// through --perf-basic-prof), for `perf report`. Prints requests/s and the service's CPU per request
// for the run (perf's own overhead lowers both: compare only runs made the same way).
// Run: npm run build && (cd bench && node perf-profile.mjs jmespath [seconds])
//      perf report -i /tmp/perf-jmespath.data --no-children --sort sym --stdio -g none | head -60
// Cases: those of request-bodies.mjs (healthz, account, jmespath, schema, sort, number, ...).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { readCpuMicros, startService } from './lib.mjs';
import { ROUTE_CASES } from './request-bodies.mjs';

const [name = 'jmespath', secondsArg = '6'] = process.argv.slice(2);
if (!ROUTE_CASES[name]) throw new Error(`unknown case ${name}; one of ${Object.keys(ROUTE_CASES).join(', ')}`);
const service = await startService({ nodeArgs: ['--perf-basic-prof'] });
try {
  const h = { 'x-api-key': service.apiKey, 'content-type': 'application/json' };
  const post = async (path, body) => (await fetch(service.url + path, { method: 'POST', headers: h, body: JSON.stringify(body) })).json();
  const c = await ROUTE_CASES[name]({ h, post });
  const body = typeof c.body === 'string' ? c.body : c.body ? JSON.stringify(c.body) : undefined;
  const options = {
    url: service.url + c.path,
    connections: 50,
    headers: c.headers ?? {},
    method: c.method ?? (c.body ? 'POST' : 'GET'),
    body,
  };
  await autocannon({ ...options, duration: 3 }); // warm-up: the JIT settles before recording
  const output = `/tmp/perf-${name}.data`;
  const perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '2000', '-g', '-o', output, '-p', String(service.process.pid)], {
    stdio: 'inherit',
  });
  const before = readCpuMicros(service.process.pid);
  const r = await autocannon({ ...options, duration: Number(secondsArg) });
  const cpu = (readCpuMicros(service.process.pid) - before) / r.requests.total;
  perf.kill('SIGINT');
  if (perf.exitCode === null) await new Promise((done) => perf.on('exit', done));
  console.log(
    `${name}: ${Math.round(r.requests.average)} requests/s, ${cpu.toFixed(1)} µs of service CPU per request (under perf); ${output}`,
  );
} finally {
  service.process.kill();
}
