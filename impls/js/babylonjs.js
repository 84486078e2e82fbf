// quatcheck process plugin: Babylon.js (npm "@babylonjs/core"), run as `node impls/js/babylonjs.js`.
// Quaternion holds JS numbers (double precision); order (x, y, z, w).
// babylon-slerp: Quaternion.SlerpToRef(left, right, amount, result), which Quaternion.Slerp and the
//   animation system call. Babylon has no quaternion nlerp.
'use strict';
const { serve, packageVersion, importLibrary, supports } = require('./protocol');
supports('@babylonjs/core', '7.0.0', 'older majors were not checked');

importLibrary('@babylonjs/core/Maths/math.vector.js').then(({ Quaternion }) => {
  const a = new Quaternion(), b = new Quaternion(), r = new Quaternion();
  serve('@babylonjs/core', packageVersion('@babylonjs/core'), [
    {
      name: 'babylon-slerp',
      ops: {
        'slerp.f64': (q0, q1, t, out) => {
          a.set(q0[1], q0[2], q0[3], q0[0]);
          b.set(q1[1], q1[2], q1[3], q1[0]);
          Quaternion.SlerpToRef(a, b, t, r);
          out[0] = r.w, out[1] = r.x, out[2] = r.y, out[3] = r.z;
        },
      },
    },
  ]);
});
