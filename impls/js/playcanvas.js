// quatcheck process plugin: PlayCanvas (npm "playcanvas"), run as `node impls/js/playcanvas.js`.
// Quat holds JS numbers (double precision); order (x, y, z, w).
// playcanvas-slerp: new Quat().slerp(lhs, rhs, alpha).
// playcanvas-lerp: new Quat().lerp(lhs, rhs, alpha) -- PlayCanvas's lerp flips the sign for the short arc
//   and normalises: an nlerp.
'use strict';
const { serve, packageVersion, importLibrary, supports } = require('./protocol');
supports('playcanvas', '2.2.0', 'the first 2.x release on npm; older majors were not checked');

importLibrary('playcanvas').then(({ Quat }) => {
  const a = new Quat(), b = new Quat(), r = new Quat();
  const run = (method) => (q0, q1, t, out) => {
    a.set(q0[1], q0[2], q0[3], q0[0]);
    b.set(q1[1], q1[2], q1[3], q1[0]);
    r[method](a, b, t);
    out[0] = r.w, out[1] = r.x, out[2] = r.y, out[3] = r.z;
  };
  serve('playcanvas', packageVersion('playcanvas'), [
    { name: 'playcanvas-slerp', ops: { 'slerp.f64': run('slerp') } },
    { name: 'playcanvas-lerp', ops: { 'nlerp.f64': run('lerp') } },
  ]);
});
