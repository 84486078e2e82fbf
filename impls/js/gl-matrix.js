// quatcheck process plugin: gl-matrix (npm "gl-matrix"), run as `node impls/js/gl-matrix.js`.
// gl-matrix stores quaternions in whatever quat.create() returns: Float32Array by default (f32 families)
// or a plain Array after glMatrix.setMatrixArrayType(Array) (f64 families); it computes in JS numbers and
// rounds on every store. Its order is (x, y, z, w).
// glmatrix-slerp: quat.slerp(out, a, b, t).
// glmatrix-lerpnorm: quat.normalize(out, quat.lerp(out, a, b, t)) -- gl-matrix has no nlerp; this is the
//   lerp-then-normalise its API offers (it does not flip the sign for the short arc).
'use strict';
const { serve, packageVersion } = require('./protocol');
const { glMatrix, quat } = require('gl-matrix');

function buffers() { return { a: quat.create(), b: quat.create(), r: quat.create() }; }
const f32 = buffers();  // Float32Array, the default
glMatrix.setMatrixArrayType(Array);
const f64 = buffers();  // Array mode
if (!(f32.r instanceof Float32Array) || !Array.isArray(f64.r)) throw new Error('gl-matrix array types not as expected');

function load(s, q0, q1) {
  quat.set(s.a, q0[1], q0[2], q0[3], q0[0]);
  quat.set(s.b, q1[1], q1[2], q1[3], q1[0]);
}
function store(s, out) { out[0] = s.r[3], out[1] = s.r[0], out[2] = s.r[1], out[3] = s.r[2]; }
const slerp = (s) => (q0, q1, t, out) => { load(s, q0, q1); quat.slerp(s.r, s.a, s.b, t); store(s, out); };
const lerpnorm = (s) => (q0, q1, t, out) => { load(s, q0, q1); quat.normalize(s.r, quat.lerp(s.r, s.a, s.b, t)); store(s, out); };

serve('gl-matrix', packageVersion('gl-matrix'), [
  { name: 'glmatrix-slerp', ops: { 'slerp.f32': slerp(f32), 'slerp.f64': slerp(f64) } },
  { name: 'glmatrix-lerpnorm', ops: { 'nlerp.f32': lerpnorm(f32), 'nlerp.f64': lerpnorm(f64) } },
]);
