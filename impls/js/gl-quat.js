// quatcheck process plugin: gl-quat (npm "gl-quat", stackgl's quaternion module), run as `node impls/js/gl-quat.js`.
// gl-quat is a module per function over plain arrays of (x, y, z, w); it computes in JS numbers and rounds on
// every store into the array it is given: the f32 family calls it on Float32Arrays (what gl-quat/create returns),
// the f64 family on plain Arrays (its functions take any array).
// glquat-slerp: slerp(out, a, b, t) (require('gl-quat/slerp'), also require('gl-quat').slerp). gl-quat has no
//   nlerp; its sqlerp takes caller-made control points and is left out.
// Documented deviations (hello `known` lines): none; gl-quat documents no fallback (its lerp for keys closer
// than 1e-6 is a source comment, not API documentation).
'use strict';
const { serve, packageVersion, library } = require('./protocol');
const slerpFn = library('gl-quat/slerp');

const buffers = (make) => ({ a: make(), b: make(), r: make() });
const f32 = buffers(() => new Float32Array(4)), f64 = buffers(() => [0, 0, 0, 0]);
const slerp = (s) => (q0, q1, t, out) => {
  s.a[0] = q0[1], s.a[1] = q0[2], s.a[2] = q0[3], s.a[3] = q0[0];
  s.b[0] = q1[1], s.b[1] = q1[2], s.b[2] = q1[3], s.b[3] = q1[0];
  slerpFn(s.r, s.a, s.b, t);
  out[0] = s.r[3], out[1] = s.r[0], out[2] = s.r[1], out[3] = s.r[2];
};

serve('gl-quat', packageVersion('gl-quat'), [{ name: 'glquat-slerp', ops: { 'slerp.f32': slerp(f32), 'slerp.f64': slerp(f64) } }]);
