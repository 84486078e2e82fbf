// quatcheck process plugin: gl-matrix (npm "gl-matrix"), run as `node impls/js/gl-matrix.js`.
// gl-matrix computes in JS numbers and rounds on every store into the array it is given: the f32 families
// call it on Float32Arrays (what quat.create() returns by default), the f64 families on plain Arrays (what
// it returns after glMatrix.setMatrixArrayType(Array), which releases before 2.3 do not have; gl-matrix's
// functions take any array either way). Its order is (x, y, z, w).
// glmatrix-slerp: quat.slerp(out, a, b, t).
// glmatrix-lerpnorm: quat.normalize(out, quat.lerp(out, a, b, t)) -- gl-matrix has no nlerp; this is the
//   lerp-then-normalise its API offers (it does not flip the sign for the short arc).
// Every release from 2.0.0 on (quatcheck history): 2.x's main is dist/gl-matrix.js, 3.x's a CommonJS build;
// both export quat with slerp, lerp and normalize.
'use strict';
const { serve, packageVersion, library, supports } = require('./protocol');
supports('gl-matrix', '2.0.0', 'npm has no older release; 1.x had another API');
// 2.6.0's UMD wrapper reads `window` and throws in Node (the release broke require() there); it is loaded with
// window as an alias of the global object, which the wrapper then exports to.
function loadLibrary() {
  try {
    return library('gl-matrix');
  } catch (e) {
    if (!(e instanceof ReferenceError) || !/window/.test(e.message) || typeof window !== 'undefined') throw e;
    globalThis.window = globalThis;
    const m = library('gl-matrix');
    return m && m.quat ? m : globalThis;
  }
}
const { quat } = loadLibrary();

function buffers(make) { return { a: make(), b: make(), r: make() }; }
const f32 = buffers(() => new Float32Array(4));
const f64 = buffers(() => [0, 0, 0, 0]);

function load(s, q0, q1) {
  s.a[0] = q0[1], s.a[1] = q0[2], s.a[2] = q0[3], s.a[3] = q0[0];
  s.b[0] = q1[1], s.b[1] = q1[2], s.b[2] = q1[3], s.b[3] = q1[0];
}
function store(s, out) { out[0] = s.r[3], out[1] = s.r[0], out[2] = s.r[1], out[3] = s.r[2]; }
const slerp = (s) => (q0, q1, t, out) => { load(s, q0, q1); quat.slerp(s.r, s.a, s.b, t); store(s, out); };
const lerpnorm = (s) => (q0, q1, t, out) => { load(s, q0, q1); quat.normalize(s.r, quat.lerp(s.r, s.a, s.b, t)); store(s, out); };

serve('gl-matrix', packageVersion('gl-matrix'), [
  { name: 'glmatrix-slerp', ops: { 'slerp.f32': slerp(f32), 'slerp.f64': slerp(f64) } },
  { name: 'glmatrix-lerpnorm', ops: { 'nlerp.f32': lerpnorm(f32), 'nlerp.f64': lerpnorm(f64) } },
]);
