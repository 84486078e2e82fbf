// quatcheck process plugin: Babylon.js (npm "@babylonjs/core"), run as `node impls/js/babylonjs.js`.
// Quaternion holds JS numbers (double precision); order (x, y, z, w).
// babylon-slerp: Quaternion.SlerpToRef(left, right, amount, result), which Quaternion.Slerp and the
//   animation system call. Babylon has no quaternion nlerp.
'use strict';
const { serve, xyzwOp, packageVersion, importLibrary, supports } = require('./protocol');
supports('@babylonjs/core', '7.0.0', 'older majors were not checked');

importLibrary('@babylonjs/core/Maths/math.vector.js').then(({ Quaternion }) => {
  const a = new Quaternion(), b = new Quaternion(), r = new Quaternion();
  const slerp = (a, b, t) => { Quaternion.SlerpToRef(a, b, t, r); return r; };
  serve('@babylonjs/core', packageVersion('@babylonjs/core'),
        [{ name: 'babylon-slerp', ops: { 'slerp.f64': xyzwOp(a, b, slerp) } }]);
});
