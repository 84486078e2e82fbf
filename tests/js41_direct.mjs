// For tests/adapters_js41.test.sh (run from impls/js): each issue-41 adapter against its library called directly.
// Usage: node tests/js41_direct.mjs ADAPTER... (cesium, super-three, gl-quat, three-debian; the ones installed).
// For every family and op the adapter offers: 100 cases (uniform keys, and keys near +-each other so the
// libraries' short-arc flips and small-angle fallbacks run) go over the binary wire of docs/plugin-protocol.md in
// one batch, and each answer must equal bit for bit what the library returns when called here through its own
// public entry (the package's index as users import it, Debian's file), not through the adapter's code.
// Negative control: the same direct calls on q0 one ulp away (in the op's precision) must change more than 20
// of the 100 answers. Exit 1 on a mismatch.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const jsDir = process.cwd();
const require = createRequire(path.join(jsDir, 'package.json'));

// The ES module entry of an installed package, as an import from this folder resolves it.
async function importPackage(name) {
  const dir = path.join(jsDir, 'node_modules', name);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  let e = pkg.exports && (typeof pkg.exports === 'string' ? pkg.exports : pkg.exports['.']);
  while (e && typeof e === 'object') e = e.import || e.default;
  return import(pathToFileURL(path.join(dir, e || pkg.module || pkg.main)).href);
}

// A small deterministic generator (mulberry32), so the cases are the same on every run.
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const unit = (q) => { const n = Math.hypot(...q); return q.map((v) => v / n); };
function makeCases(width) {
  const r = rng(41), u = () => 2 * r() - 1, round = width === 4 ? Math.fround : (v) => v;
  const cases = [];
  for (let k = 0; k < 100; k++) {
    const q0 = unit([u(), u(), u(), u()]);
    const near = (s, e) => unit(q0.map((v) => s * v + e * u()));
    // every third pair nearly equal or nearly opposite (the fallbacks' side of the dot), the rest uniform
    const q1 = k % 3 ? unit([u(), u(), u(), u()]) : near(k % 2 ? -1 : 1, [1e-3, 1e-5, 1e-8][k % 9 / 3 | 0]);
    const keys = [q0, q1, unit([u(), u(), u(), u()]), unit([u(), u(), u(), u()])].map((q) => q.map(round));
    cases.push({ q: keys, t: round(r()) });
  }
  return cases;
}
const nextUp = (v, width) => {
  const b = new DataView(new ArrayBuffer(8));
  if (width === 4) { b.setFloat32(0, v); b.setInt32(0, b.getInt32(0) + (v < 0 ? -1 : 1)); return b.getFloat32(0); }
  b.setFloat64(0, v); b.setBigInt64(0, b.getBigInt64(0) + (v < 0 ? -1n : 1n)); return b.getFloat64(0);
};

// One adapter process: its hello, then batches.
class Adapter {
  constructor(file) {
    this.proc = spawn('node', [path.join(jsDir, file)], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.buf = Buffer.alloc(0);
    this.waiters = [];
    this.proc.stdout.on('data', (d) => { this.buf = Buffer.concat([this.buf, d]); this.wake(); });
    this.proc.stdout.on('end', () => { this.ended = true; this.wake(); });
  }
  wake() { for (const w of this.waiters.splice(0)) w(); }
  async until(test) {
    for (;;) {
      const v = test();
      if (v !== undefined) return v;
      if (this.ended) throw new Error('the adapter ended early');
      await new Promise((res) => this.waiters.push(res));
    }
  }
  async hello() {
    const text = await this.until(() => {
      const s = this.buf.toString('latin1'), i = s.indexOf('\nend\n');
      return i < 0 ? undefined : s.slice(0, i + 5);
    });
    this.buf = this.buf.subarray(text.length);
    this.families = text.split('\n').filter((l) => l.startsWith('family ')).map((l) => l.split(' ')[1]);
    return text;
  }
  // op: 0 slerp, 3 squad, 4 squad_setup; rows: arrays of the values of each case.
  async batch(family, op, width, rows) {
    const head = Buffer.alloc(24);
    head.writeUInt32LE(0x31424351, 0), head.writeUInt32LE(1, 4), head.writeUInt32LE(this.families.indexOf(family), 8);
    head.writeUInt8(op, 12), head.writeUInt8(width, 13), head.writeUInt32LE(rows.length, 16);
    const flat = rows.flat(), body = Buffer.alloc(flat.length * width);
    flat.forEach((v, i) => (width === 4 ? body.writeFloatLE(v, 4 * i) : body.writeDoubleLE(v, 8 * i)));
    this.proc.stdin.write(Buffer.concat([head, body]));
    const need = 24 + rows.length * 4 * width;
    const reply = await this.until(() => (this.buf.length >= need ? this.buf.subarray(0, need) : undefined));
    this.buf = this.buf.subarray(need);
    if (reply.readUInt32LE(0) !== 0x31524351 || reply.readUInt32LE(8) !== rows.length) throw new Error('bad reply header');
    return rows.map((_, c) => [0, 1, 2, 3].map((k) => (width === 4 ? reply.readFloatLE(24 + 4 * (4 * c + k))
                                                                  : reply.readDoubleLE(24 + 8 * (4 * c + k)))));
  }
  close() { this.proc.stdin.end(); return new Promise((res) => this.proc.on('exit', res)); }
}

// The direct calls: name -> { FAMILY: { op, width, call(keys (w, x, y, z) each, t) -> (w, x, y, z) } }.
const wxyz = (q) => [q.w, q.x, q.y, q.z];
const arr = (r) => [r[3], r[0], r[1], r[2]];
const xyzw = (q) => [q[1], q[2], q[3], q[0]];
async function direct(name) {
  if (name === 'cesium') {
    const { Quaternion: Q } = await importPackage('@cesium/engine');
    // the adapter loads the module that defines Quaternion (the index loads the whole engine): the same class
    const own = await import(pathToFileURL(path.join(jsDir, 'node_modules/@cesium/engine/Source/Core/Quaternion.js')).href);
    if (own.default !== Q) throw new Error("@cesium/engine's index exports another Quaternion than Source/Core/Quaternion.js");
    const m = (q) => new Q(...xyzw(q));
    return {
      'cesium-slerp': { op: 0, width: 8, call: ([a, b], t) => wxyz(Q.slerp(m(a), m(b), t, new Q())) },
      'cesium-fastslerp': { op: 0, width: 8, call: ([a, b], t) => wxyz(Q.fastSlerp(m(a), m(b), t, new Q())) },
      'cesium-squad': { op: 3, width: 8, call: ([a, b, c, d], t) => wxyz(Q.squad(m(a), m(b), m(c), m(d), t, new Q())) },
      'cesium-fastsquad': { op: 3, width: 8, call: ([a, b, c, d], t) => wxyz(Q.fastSquad(m(a), m(b), m(c), m(d), t, new Q())) },
      'cesium-squad/setup': { op: 4, width: 8, call: ([a, b, c]) => wxyz(Q.computeInnerQuadrangle(m(a), m(b), m(c), new Q())) },
    };
  }
  const threeLike = (Q, prefix, staticSlerp) => ({
    [`${prefix}-slerp`]: {
      op: 0, width: 8,
      call: ([a, b], t) => wxyz(staticSlerp ? new Q(...xyzw(a)).slerp(new Q(...xyzw(b)), t)
                                            : new Q().slerpQuaternions(new Q(...xyzw(a)), new Q(...xyzw(b)), t)),
    },
    [`${prefix}-slerpflat`]: {
      op: 0, width: 4,
      call: ([a, b], t) => { const r = new Float32Array(4); Q.slerpFlat(r, 0, Float32Array.from(xyzw(a)), 0, Float32Array.from(xyzw(b)), 0, t); return arr(r); },
    },
  });
  if (name === 'super-three') return threeLike((await importPackage('super-three')).Quaternion, 'superthree', false);
  if (name === 'three-debian') return threeLike(require('/usr/share/javascript/three/build/three.js').Quaternion, 'threedeb', true);
  if (name === 'gl-quat') {
    const { slerp } = require('gl-quat');
    return {
      'glquat-slerp/f32': { op: 0, width: 4, call: ([a, b], t) => arr(slerp(new Float32Array(4), Float32Array.from(xyzw(a)), Float32Array.from(xyzw(b)), t)) },
      'glquat-slerp/f64': { op: 0, width: 8, call: ([a, b], t) => arr(slerp([0, 0, 0, 0], xyzw(a), xyzw(b), t)) },
    };
  }
  throw new Error(`no direct calls for ${name}`);
}

const bits = (v, width) => {
  const b = Buffer.alloc(8);
  if (width === 4) b.writeFloatLE(v); else b.writeDoubleLE(v);
  return b.toString('hex');
};
const same = (x, y, width) => x.every((v, k) => bits(v, width) === bits(y[k], width));
let failed = 0;
for (const name of process.argv.slice(2)) {
  const adapter = new Adapter(`${name}.js`);
  await adapter.hello();
  for (const [key, d] of Object.entries(await direct(name))) {
    const family = key.split('/')[0], cases = makeCases(d.width);
    const rows = cases.map(({ q, t }) => (d.op === 3 ? [...q[0], ...q[1], ...q[2], ...q[3], t]
                                          : d.op === 4 ? [...q[0], ...q[1], ...q[2]] : [...q[0], ...q[1], t]));
    const wire = await adapter.batch(family, d.op, d.width, rows);
    const mine = cases.map(({ q, t }) => d.call(q, t));
    const bad = wire.filter((w, c) => !same(w, mine[c], d.width)).length;
    const nudged = cases.map(({ q, t }) => d.call([[q[0][0], nextUp(q[0][1], d.width), q[0][2], q[0][3]], ...q.slice(1)], t));
    const moved = wire.filter((w, c) => !same(w, nudged[c], d.width)).length;
    const what = `${key} (${['slerp', , , 'squad', 'squad_setup'][d.op]}.f${8 * d.width})`;
    if (bad) console.log(`FAIL: ${what}: ${bad} of 100 answers over the wire differ from the library called directly`);
    else if (moved <= 20) console.log(`FAIL: negative control: ${what}: inputs one ulp away changed only ${moved} of 100 answers`);
    else console.log(`${what}: 100 cases over the wire equal the library's own answers bit for bit; one ulp away, ${moved} differ`);
    if (bad || moved <= 20) failed++;
  }
  await adapter.close();
}
process.exit(failed ? 1 : 0);
