// quatcheck process plugin: math.gl (npm "@math.gl/core"), run as `node impls/js/mathgl.js`.
// Quaternion is an Array subclass of JS numbers (double precision); order (x, y, z, w).
// mathgl-slerp: new Quaternion().slerp(start, target, ratio).
// mathgl-lerpnorm: new Quaternion().lerp(start, target, t).normalize() -- math.gl has no nlerp; this is
//   the lerp-then-normalise its API offers.
'use strict';
const { serve, packageVersion } = require('./protocol');
const { Quaternion } = require('@math.gl/core');

const a = new Quaternion(), b = new Quaternion(), r = new Quaternion();
function load(q0, q1) {
  a.set(q0[1], q0[2], q0[3], q0[0]);
  b.set(q1[1], q1[2], q1[3], q1[0]);
}
function store(out) { out[0] = r[3], out[1] = r[0], out[2] = r[1], out[3] = r[2]; }
serve('@math.gl/core', packageVersion('@math.gl/core'), [
  { name: 'mathgl-slerp', ops: { 'slerp.f64': (q0, q1, t, out) => { load(q0, q1); r.slerp(a, b, t); store(out); } } },
  { name: 'mathgl-lerpnorm', ops: { 'nlerp.f64': (q0, q1, t, out) => { load(q0, q1); r.lerp(a, b, t).normalize(); store(out); } } },
]);
