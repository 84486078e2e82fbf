// quatcheck process plugin: three.js as Debian ships it (package libjs-three, r111: the UMD build in
// /usr/share/javascript/three/build/three.js, for pages that load it with a <script> tag), run as
// `node impls/js/three-debian.js`. The build's wrapper exports THREE through CommonJS when it finds `module`,
// so Node loads the file itself with require(). Its order is (x, y, z, w).
// threedeb-slerp.f64: the static Quaternion.slerp(qa, qb, qm, t) of r111's documentation (qm.copy(qa).slerp(qb,
//   t)) on Quaternion objects (JS numbers). r111 predates slerpQuaternions.
// threedeb-slerpflat.f32: Quaternion.slerpFlat(dst, 0, src0, 0, src1, 0, t) on Float32Arrays, as r111's
//   QuaternionLinearInterpolant runs it over animation tracks.
// Named apart from the npm three (impls/js/three.js, three-*): another release, with another slerp.
// QC_THREE_DEBIAN=FILE loads another copy of the build.
// Documented deviations (hello `known` lines): none; r111's docs state no fallback or endpoint shortcut.
'use strict';
const fs = require('fs');
const { serve, xyzwOp } = require('./protocol');
const file = process.env.QC_THREE_DEBIAN || '/usr/share/javascript/three/build/three.js';
if (!fs.existsSync(file)) {
  process.stderr.write(`three-debian.js: ${file} is missing (Debian libjs-three)\n`);
  process.exit(1);
}
const THREE = require(file);

const a = new THREE.Quaternion(), b = new THREE.Quaternion(), r = new THREE.Quaternion();
const fa = new Float32Array(4), fb = new Float32Array(4), fr = new Float32Array(4);
serve('libjs-three', `r${THREE.REVISION}`, [
  { name: 'threedeb-slerp', ops: { 'slerp.f64': xyzwOp(a, b, (a, b, t) => THREE.Quaternion.slerp(a, b, r, t)) } },
  {
    name: 'threedeb-slerpflat',
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
