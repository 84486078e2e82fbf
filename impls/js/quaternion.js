// quatcheck process plugin: Quaternion.js (npm "quaternion"), run as `node impls/js/quaternion.js`.
// quaternionjs-slerp.f64: new Quaternion(w, x, y, z).slerp(end)(t) -- its slerp returns a function of t, as its
//   README shows; JS numbers (double precision), order (w, x, y, z) like quatcheck's. Near 1 - |a.b| < EPSILON
//   (1e-12) it falls back to a normalised lerp. No nlerp, no squad.
'use strict';
const { serve, packageVersion } = require('./protocol');
const Quaternion = require('quaternion');

serve('quaternion', packageVersion('quaternion'), [
  {
    name: 'quaternionjs-slerp',
    ops: {
      'slerp.f64': (q0, q1, t, out) => {
        const r = new Quaternion(q0[0], q0[1], q0[2], q0[3]).slerp(new Quaternion(q1[0], q1[1], q1[2], q1[3]))(t);
        out[0] = r.w, out[1] = r.x, out[2] = r.y, out[3] = r.z;
      },
    },
  },
]);
