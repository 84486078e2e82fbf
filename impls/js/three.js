// quatcheck process plugin: three.js (npm "three"), run as `node impls/js/three.js`.
// three-slerp.f64: Quaternion.prototype.slerpQuaternions(qa, qb, t) on Quaternion objects (JS numbers,
//   double precision), as scene code calls it; three's order is (x, y, z, w).
// three-slerpflat.f32: Quaternion.slerpFlat(dst, 0, src0, 0, src1, 0, t) on Float32Arrays, as three's own
//   QuaternionLinearInterpolant runs it over animation tracks (whose value buffers are Float32Array).
// three has no nlerp.
// Across releases (quatcheck history, QC_JS_PREFIX): releases before r123 have no slerpQuaternions and are
// called through the static Quaternion.slerp(qa, qb, qm, t) their documentation showed; their main is the UMD
// build (build/three.js), loaded with require(). slerpFlat is there from r84 on (the oldest supported).
'use strict';
const { serve, xyzwOp, packageVersion, library, supports } = require('./protocol');
supports('three', '0.84.0', 'the releases checked start at r84; older ones are not');

// three is an ES module (its CommonJS build is deprecated): imported as such from this folder; from another
// prefix, required (old releases have only the UMD build, new ones a CommonJS build beside the module).
(process.env.QC_JS_PREFIX ? Promise.resolve(library('three')) : import('three')).then((THREE) => {
const a = new THREE.Quaternion(), b = new THREE.Quaternion(), r = new THREE.Quaternion();
const fa = new Float32Array(4), fb = new Float32Array(4), fr = new Float32Array(4);

serve('three', packageVersion('three'), [
  {
    name: 'three-slerp',
    ops: {
      'slerp.f64': xyzwOp(a, b, (a, b, t) => {
        if (r.slerpQuaternions) r.slerpQuaternions(a, b, t);
        else THREE.Quaternion.slerp(a, b, r, t);
        return r;
      }),
    },
  },
  {
    name: 'three-slerpflat',
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
