// The adapter side of quatcheck's process-plugin protocol (docs/plugin-protocol.md), shared by the
// adapters in this folder. An adapter calls serve() with its library's name and version and its families;
// each family maps "OP.PRECISION" (slerp.f32, slerp.f64, nlerp.f32, nlerp.f64) to a function
// fn(q0, q1, t, out) over quatcheck's (w, x, y, z) order, which calls the library as its users do.
// Protocol 2 adds slerp_tau.f32 / slerp_tau.f64: fn(q0, q1, t, tau, out), the routine with its fallback
// threshold as a parameter (a family that offers one makes the hello say 'quatcheck-plugin 2').
// Protocol 3 adds squad.f32 / squad.f64: fn(q0, q1, a, b, t, out), the library's squad of one segment with its
// two inner points as plugin.h's squad takes them, and squad_setup.f32 / squad_setup.f64: fn(prev, cur, next,
// out), its control point of cur. A family with squad and no squad_setup says in `squadControls` what its
// a and b are: 'neighbours' (the keys before q0 and after q1) or 'caller' (control points it leaves to its
// caller to compute).
'use strict';
const fs = require('fs');
const path = require('path');

// Where the libraries come from: this folder's node_modules, or with QC_JS_PREFIX=DIR the node_modules of DIR
// (quatcheck history installs each version of a library into a prefix of its own and points an adapter at it).
const prefix = process.env.QC_JS_PREFIX || __dirname;
const libraryRequire = require('module').createRequire(path.join(prefix, 'package.json'));
// require() of a library from that prefix (its main field: the UMD or CommonJS build of old releases).
function library(name) { return libraryRequire(name); }

// import() of a library's module: from this folder as usual, or from QC_JS_PREFIX through the file that the
// package's ES module entry names (exports' "import" condition, else "module", else "main"; a subpath as it is).
function importLibrary(spec) {
  if (!process.env.QC_JS_PREFIX) return import(spec);
  const parts = spec.split('/');
  const name = parts.slice(0, spec.startsWith('@') ? 2 : 1).join('/'), sub = parts.slice(name.split('/').length).join('/');
  const dir = path.join(prefix, 'node_modules', name);
  let entry = sub;
  if (!entry) {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    let e = pkg.exports && (typeof pkg.exports === 'string' ? pkg.exports : pkg.exports['.'] || pkg.exports);
    while (e && typeof e === 'object') e = e.import || e.node || e.default;
    entry = e || pkg.module || pkg.main || 'index.js';
  }
  return import(require('url').pathToFileURL(path.join(dir, entry)).href);
}

// The version of an installed package, read from its package.json (some packages do not export it).
function packageVersion(name) {
  const file = path.join(prefix, 'node_modules', name, 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

// Semver order of two release versions "MAJOR.MINOR.PATCH" (a pre-release sorts before its release).
function compareVersions(a, b) {
  const parse = (v) => { const [core, pre] = v.split('-', 2); return [core.split('.').map(Number), pre]; };
  const [ca, pa] = parse(a), [cb, pb] = parse(b);
  for (let i = 0; i < 3; i++) if ((ca[i] || 0) !== (cb[i] || 0)) return (ca[i] || 0) < (cb[i] || 0) ? -1 : 1;
  if (pa === pb) return 0;
  return pa === undefined ? 1 : pb === undefined ? -1 : pa < pb ? -1 : 1;
}

// Which versions of its library an adapter supports: `node ADAPTER --supports VERSION` prints "supported" or
// "unsupported: WHY" and exits 0 without loading the library (quatcheck history asks before it installs a
// version, and prints one SKIP line for an unsupported one). Called first by an adapter that has a range;
// `min` is the oldest release the adapter calls correctly, `why` what older ones lack.
function supports(name, min, why) {
  if (process.argv[2] !== '--supports') return;
  const v = process.argv[3] || '';
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(v)) {
    process.stdout.write(`unsupported: ${name} '${v}' is not a version\n`);
  } else if (compareVersions(v, min) < 0) {
    process.stdout.write(`unsupported: ${name} ${v} is older than ${min}, the oldest release this adapter supports (${why})\n`);
  } else {
    process.stdout.write('supported\n');
  }
  process.exit(0);
}

function readExactly(buf, n) {
  let have = 0;
  while (have < n) {
    let k;
    try {
      k = fs.readSync(0, buf, have, n - have, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EOF') return false;
      throw e;
    }
    if (k === 0) return false;  // EOF: quatcheck is done
    have += k;
  }
  return true;
}

function writeAll(buf) {
  let off = 0;
  while (off < buf.length) {
    try {
      off += fs.writeSync(1, buf, off, buf.length - off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

// An op (q0, q1, t, out) for quaternion objects with set(x, y, z, w) and w, x, y, z fields: sets A and B from q0 and
// q1 (quatcheck's (w, x, y, z) order), then stores in out the quaternion interpolate(a, b, t) returns.
function xyzwOp(a, b, interpolate) {
  return (q0, q1, t, out) => {
    a.set(q0[1], q0[2], q0[3], q0[0]);
    b.set(q1[1], q1[2], q1[3], q1[0]);
    const r = interpolate(a, b, t);
    out[0] = r.w, out[1] = r.x, out[2] = r.y, out[3] = r.z;
  };
}

function serve(library, version, families) {
  const has = (prefix) => families.some((f) => Object.keys(f.ops).some((k) => k.startsWith(prefix)));
  const protocol = has('squad') ? 3 : has('slerp_tau.') ? 2 : 1;
  let hello = `quatcheck-plugin ${protocol}\nlibrary ${library} ${version}\n`;
  for (const f of families) hello += `family ${f.name} ${Object.keys(f.ops).join(' ')}\n`;
  for (const f of families) if (f.squadControls) hello += `squad-controls ${f.name} ${f.squadControls}\n`;
  // A deviation the library documents, in its own words: known: [[OP, PROPERTY, WHY], ...] (conform's "known").
  for (const f of families) for (const [op, property, why] of f.known || []) hello += `known ${f.name} ${op} ${property} ${why}\n`;
  // A figure or behaviour the library documents, held to conform's claimed-KIND property:
  // claims: [[OP, KIND, VALUE, WHY], ...], KIND accuracy, threshold or t-clamp (docs/plugin-protocol.md).
  for (const f of families) for (const [op, kind, value, why] of f.claims || []) hello += `claim ${f.name} ${op} ${kind} ${value} ${why}\n`;
  writeAll(Buffer.from(hello + 'end\n', 'ascii'));

  const MAX = 4096;
  const head = Buffer.alloc(24);
  const input = Buffer.alloc(MAX * 17 * 8);
  const output = Buffer.alloc(24 + MAX * 4 * 8);
  // Per case: q0, q1, out (arrays of 4 JS numbers, as user code holds them), t and tau.
  const quad = () => Array.from({ length: MAX }, () => [0, 0, 0, 0]);
  const A = quad(), B = quad(), C = quad(), D = quad(), O = quad(), T = new Float64Array(MAX), TAU = new Float64Array(MAX);
  // The wire's values read and written through typed-array views (host order: little-endian, checked),
  // which is much cheaper per value than Buffer's readDoubleLE/writeDoubleLE.
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1 || input.byteOffset % 8 || output.byteOffset % 8)
    throw new Error('protocol.js needs a little-endian host and aligned buffers');
  const in32 = new Float32Array(input.buffer, input.byteOffset, MAX * 17);
  const in64 = new Float64Array(input.buffer, input.byteOffset, MAX * 17);
  const out32 = new Float32Array(output.buffer, output.byteOffset + 24, MAX * 4);
  const out64 = new Float64Array(output.buffer, output.byteOffset + 24, MAX * 4);
  while (readExactly(head, 24)) {
    const magic = head.readUInt32LE(0), seq = head.readUInt32LE(4), family = head.readUInt32LE(8);
    const op = head.readUInt8(12), width = head.readUInt8(13), n = head.readUInt32LE(16);
    const fam = families[family];
    const key = `${['slerp', 'nlerp', 'slerp_tau', 'squad', 'squad_setup'][op]}.${width === 4 ? 'f32' : 'f64'}`;
    // values per case: slerp, nlerp q0 q1 t; slerp_tau q0 q1 t tau; squad q0 q1 a b t; squad_setup prev cur next
    const stride = [9, 9, 10, 17, 12][op];
    if (magic !== 0x31424351 || !fam || !(key in fam.ops) || n < 1 || n > MAX || head.readUInt16LE(14) !== 0 ||
        head.readUInt32LE(20) !== 0)
      throw new Error('malformed request');
    if (!readExactly(input, n * stride * width)) return;
    const fn = fam.ops[key];
    const vin = width === 4 ? in32 : in64, vout = width === 4 ? out32 : out64;
    // Decode the whole batch, time only the loop of library calls (one monotonic-clock bracket: timing each
    // call would add the clock's own cost to every call), then encode: the reply's nanoseconds are the
    // library's cost, which quatcheck bench reports in timing.csv, not the pipe's.
    for (let c = 0; c < n; c++) {
      const a = A[c], b = B[c], cc = C[c], d = D[c];
      const r = stride * c;
      for (let k = 0; k < 4; k++) a[k] = vin[r + k], b[k] = vin[r + 4 + k];
      if (op >= 3) for (let k = 0; k < 4; k++) cc[k] = vin[r + 8 + k];
      if (op === 3) for (let k = 0; k < 4; k++) d[k] = vin[r + 12 + k];
      T[c] = vin[r + (op === 3 ? 16 : 8)];
      if (op === 2) TAU[c] = vin[r + 9];
    }
    const t0 = process.hrtime.bigint();
    if (op === 2) for (let c = 0; c < n; c++) fn(A[c], B[c], T[c], TAU[c], O[c]);
    else if (op === 3) for (let c = 0; c < n; c++) fn(A[c], B[c], C[c], D[c], T[c], O[c]);
    else if (op === 4) for (let c = 0; c < n; c++) fn(A[c], B[c], C[c], O[c]);
    else for (let c = 0; c < n; c++) fn(A[c], B[c], T[c], O[c]);
    const elapsed = process.hrtime.bigint() - t0;
    for (let c = 0; c < n; c++) for (let k = 0; k < 4; k++) vout[4 * c + k] = O[c][k];
    output.writeUInt32LE(0x31524351, 0);
    output.writeUInt32LE(seq, 4);
    output.writeUInt32LE(n, 8);
    output.writeUInt32LE(0, 12);
    output.writeBigUInt64LE(elapsed, 16);
    writeAll(output.subarray(0, 24 + n * 4 * width));
  }
}

module.exports = { serve, xyzwOp, packageVersion, library, importLibrary, supports, compareVersions };
