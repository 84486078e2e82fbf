// quatcheck process plugin: wgpu-matrix (npm "wgpu-matrix"), run as `node impls/js/wgpu-matrix.js`.
// wgpu-matrix has one API per storage type: `quat` stores Float32Array (the default, what WebGPU uniform buffers
// take: f32 family) and `quatd` Float64Array (f64 family); both compute in JS numbers and round on the store.
// Order (x, y, z, w).
// wgpu-slerp: quat.slerp(a, b, t, dst). Its fallback to lerp below 1 - |a.b| = utils.EPSILON (1e-6) is kept at
//   the library's default. wgpu-matrix has no nlerp.
// wgpu-sqlerp: quat.sqlerp(a, b, c, d, t, dst), "a spherical linear interpolation with two control points":
//   slerp(slerp(a, d, t), slerp(b, c, t), 2t(1-t)), called as sqlerp(q0, s0, s1, q1, t), Shoemake's squad form
//   with the library's short-arc slerp (and its lerp below 1 - |dot| = 1e-6) in every layer; the two inner
//   slerps store into the API's own temporaries (Float32Array for quat). wgpu-matrix computes no control points
//   (no log, exp or inner-point routine): its caller supplies them, so the hello says `squad-controls caller`.
'use strict';
const { serve, packageVersion } = require('./protocol');

import('wgpu-matrix').then(({ quat, quatd }) => {  // an ES module
function op(api) {
  const a = api.create(), b = api.create(), r = api.create();
  return (q0, q1, t, out) => {
    api.set(q0[1], q0[2], q0[3], q0[0], a);
    api.set(q1[1], q1[2], q1[3], q1[0], b);
    api.slerp(a, b, t, r);
    out[0] = r[3], out[1] = r[0], out[2] = r[1], out[3] = r[2];
  };
}
function sq(api) {
  const a = api.create(), b = api.create(), c = api.create(), d = api.create(), r = api.create();
  return (q0, q1, s0, s1, t, out) => {
    api.set(q0[1], q0[2], q0[3], q0[0], a);
    api.set(s0[1], s0[2], s0[3], s0[0], b);
    api.set(s1[1], s1[2], s1[3], s1[0], c);
    api.set(q1[1], q1[2], q1[3], q1[0], d);
    api.sqlerp(a, b, c, d, t, r);
    out[0] = r[3], out[1] = r[0], out[2] = r[1], out[3] = r[2];
  };
}
if (!(quat.create() instanceof Float32Array) || !(quatd.create() instanceof Float64Array))
  throw new Error('wgpu-matrix storage types not as expected');

serve('wgpu-matrix', packageVersion('wgpu-matrix'), [
  { name: 'wgpu-slerp', ops: { 'slerp.f32': op(quat), 'slerp.f64': op(quatd) } },
  { name: 'wgpu-sqlerp', ops: { 'squad.f32': sq(quat), 'squad.f64': sq(quatd) }, squadControls: 'caller' },
]);
});
