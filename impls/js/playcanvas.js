// quatcheck process plugin: PlayCanvas (npm "playcanvas"), run as `node impls/js/playcanvas.js`.
// Quat holds JS numbers (double precision); order (x, y, z, w).
// playcanvas-slerp: new Quat().slerp(lhs, rhs, alpha).
// playcanvas-lerp: new Quat().lerp(lhs, rhs, alpha) -- PlayCanvas's lerp flips the sign for the short arc
//   and normalises: an nlerp.
'use strict';
const { serve, xyzwOp, packageVersion, importLibrary, supports } = require('./protocol');
supports('playcanvas', '2.2.0', 'the first 2.x release on npm; older majors were not checked');

importLibrary('playcanvas').then(({ Quat }) => {
  const a = new Quat(), b = new Quat(), r = new Quat();
  const run = (method) => xyzwOp(a, b, (a, b, t) => { r[method](a, b, t); return r; });
  serve('playcanvas', packageVersion('playcanvas'), [
    { name: 'playcanvas-slerp', ops: { 'slerp.f64': run('slerp') } },
    { name: 'playcanvas-lerp', ops: { 'nlerp.f64': run('lerp') } },
  ]);
});
