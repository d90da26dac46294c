// What an object literal that goes on after a spread costs in this Node's V8, against the same object
// written out, built step by step, or as a flat list (the header forms src/http/tool-fast-route.ts
// weighed): nanoseconds per object, each built and then read as Node's writeHead reads headers.
// Run: cd bench && node object-spread.mjs
import { writeResults } from './lib.mjs';

const JSON_TYPE = 'application/json; charset=utf-8';
const N = Number(process.env.BENCH_OBJECTS ?? 2_000_000);

/** As Node's _storeHeader walks an object of headers. */
function walk(headers) {
  let n = 0;
  for (const key in headers) if (Object.prototype.hasOwnProperty.call(headers, key)) n += key.length + headers[key].length;
  return n;
}

const FORMS = {
  'spread, then two properties: { ...h, a, b }': (id, length) => {
    const h = { 'x-request-id': id };
    return walk({ ...h, 'content-type': JSON_TYPE, 'content-length': length });
  },
  'spread, then one property: { ...h, a }': (id) => {
    const h = { 'x-request-id': id };
    return walk({ ...h, 'content-type': JSON_TYPE });
  },
  'two spreads: { ...h, ...g }': (id) => {
    const h = { 'x-request-id': id };
    const g = { 'content-type': JSON_TYPE };
    return walk({ ...h, ...g });
  },
  'Object.assign({}, h, { a, b })': (id, length) => {
    const h = { 'x-request-id': id };
    return walk(Object.assign({}, h, { 'content-type': JSON_TYPE, 'content-length': length }));
  },
  'spread alone: { ...h }': (id) => {
    const h = { 'x-request-id': id, 'content-type': JSON_TYPE };
    return walk({ ...h });
  },
  'written out: { a, b, c }': (id, length) => walk({ 'x-request-id': id, 'content-type': JSON_TYPE, 'content-length': length }),
  'Object.assign({ a }, { b, c })': (id, length) => walk(Object.assign({ 'x-request-id': id }, { 'content-type': JSON_TYPE, 'content-length': length })),
  'flat list [name, value, ...]': (id, length) => {
    const list = ['x-request-id', id, 'content-type', JSON_TYPE, 'content-length', length];
    let n = 0;
    for (let i = 0; i < list.length; i += 2) n += list[i].length + list[i + 1].length;
    return n;
  },
};

const rows = [];
for (const [form, build] of Object.entries(FORMS)) {
  let sink = 0;
  for (let i = 0; i < 100_000; i++) sink += build(`r-${i}`, String(i)); // warm-up: optimized code
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i++) sink += build(`r-${i}`, String(i));
  const ns = Number(process.hrtime.bigint() - started) / N;
  rows.push({ form, ns_per_object: Math.round(ns), check: sink > 0 });
}
writeResults('object-spread', {
  note: `${N} objects per form after 100000 of warm-up, one process, ${process.version}.`,
  pinned: false,
  rows,
});
