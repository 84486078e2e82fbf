// quatcheck process plugin: cannon-es (npm "cannon-es"), run as `node impls/js/cannon-es.js`.
// Quaternion holds JS numbers (double precision); order (x, y, z, w).
// cannon-slerp: q0.slerp(toQuat, t, target). cannon-es has no nlerp.
'use strict';
const { serve, packageVersion } = require('./protocol');
const { Quaternion } = require('cannon-es');

const a = new Quaternion(), b = new Quaternion(), r = new Quaternion();
serve('cannon-es', packageVersion('cannon-es'), [
  {
    name: 'cannon-slerp',
    ops: {
      'slerp.f64': (q0, q1, t, out) => {
        a.set(q0[1], q0[2], q0[3], q0[0]);
        b.set(q1[1], q1[2], q1[3], q1[0]);
        a.slerp(b, t, r);
        out[0] = r.w, out[1] = r.x, out[2] = r.y, out[3] = r.z;
      },
    },
  },
]);
