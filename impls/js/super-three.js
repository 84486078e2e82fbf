// quatcheck process plugin: super-three (npm "super-three", the fork of three.js that A-Frame depends on), run
// as `node impls/js/super-three.js`. Its order is (x, y, z, w), as three's.
// superthree-slerp.f64: Quaternion.prototype.slerpQuaternions(qa, qb, t) on Quaternion objects (JS numbers),
//   as A-Frame components call it.
// superthree-slerpflat.f32: Quaternion.slerpFlat(dst, 0, src0, 0, src1, 0, t) on Float32Arrays, as its
//   QuaternionLinearInterpolant runs it over animation tracks.
// The families are named apart from three's (impls/js/three.js): the fork is released on its own schedule and
// its Quaternion may drift from the three release it follows.
// Documented deviations (hello `known` lines): none; its docs, like three's, state no fallback (the lerp then
// normalise for close keys is a source comment).
'use strict';
const { serve, xyzwOp, packageVersion, importLibrary } = require('./protocol');

importLibrary('super-three').then((THREE) => {
  const a = new THREE.Quaternion(), b = new THREE.Quaternion(), r = new THREE.Quaternion();
  const fa = new Float32Array(4), fb = new Float32Array(4), fr = new Float32Array(4);
  serve('super-three', packageVersion('super-three'), [
    { name: 'superthree-slerp', ops: { 'slerp.f64': xyzwOp(a, b, (a, b, t) => r.slerpQuaternions(a, b, t)) } },
    {
      name: 'superthree-slerpflat',
      ops: {
        'slerp.f32': (q0, q1, t, out) => {
          fa[0] = q0[1], fa[1] = q0[2], fa[2] = q0[3], fa[3] = q0[0];
          fb[0] = q1[1], fb[1] = q1[2], fb[2] = q1[3], fb[3] = q1[0];
          THREE.Quaternion.slerpFlat(fr, 0, fa, 0, fb, 0, t);
          out[0] = fr[3], out[1] = fr[0], out[2] = fr[1], out[3] = fr[2];
        },
      },
    },
  ]);
});
