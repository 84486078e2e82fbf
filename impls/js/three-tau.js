// quatcheck process plugin (protocol 2): a three.js-style slerp with its fallback threshold exposed, run as
// `node impls/js/three-tau.js`; it needs no npm package. Written here from the structure of three.js r187's
// Quaternion.prototype.slerp (npm "three" 0.187.0, src/math/Quaternion.js): dot product in (x, y, z, w) order,
// sign flip of the target when the dot is negative, acos arc with weights sin((1 - t) theta) / sin theta and
// sin(t theta) / sin theta, and above the threshold a lerp followed by normalize() (length sqrt(x^2 + y^2 +
// z^2 + w^2), then a multiplication by its reciprocal). three hard-codes the threshold (`dot < 0.9995` takes
// the arc); here the fallback runs when dot > tau, the convention of quatcheck's slerp_tau (plugin.h), so
// the only difference from three at tau = 0.9995 is a dot of exactly 0.9995 (arc here, lerp in three).
// JS numbers: double precision.
//   three-style-tau.f64  slerp.f64 (tau = 0.9995, as shipped) and slerp_tau.f64, for
//                        `quatcheck threshold --plugin-cmd 'node impls/js/three-tau.js' --impl three-style-tau`
'use strict';
const { serve } = require('./protocol');

// q0, q1, out in quatcheck's (w, x, y, z) order.
function slerpTau(q0, q1, t, tau, out) {
  const ax = q0[1], ay = q0[2], az = q0[3], aw = q0[0];
  let bx = q1[1], by = q1[2], bz = q1[3], bw = q1[0];
  let dot = ax * bx + ay * by + az * bz + aw * bw;
  if (dot < 0) {
    bx = -bx, by = -by, bz = -bz, bw = -bw;
    dot = -dot;
  }
  let wa = 1 - t, wb = t;
  if (!(dot > tau)) {  // the arc
    const theta = Math.acos(dot);
    const sin = Math.sin(theta);
    wa = Math.sin(wa * theta) / sin;
    wb = Math.sin(wb * theta) / sin;
    out[1] = ax * wa + bx * wb, out[2] = ay * wa + by * wb, out[3] = az * wa + bz * wb, out[0] = aw * wa + bw * wb;
    return;
  }
  let x = ax * wa + bx * wb, y = ay * wa + by * wb, z = az * wa + bz * wb, w = aw * wa + bw * wb;
  let l = Math.sqrt(x * x + y * y + z * z + w * w);
  if (l === 0) {
    x = 0, y = 0, z = 0, w = 1;
  } else {
    l = 1 / l;
    x *= l, y *= l, z *= l, w *= l;
  }
  out[0] = w, out[1] = x, out[2] = y, out[3] = z;
}

serve('quatcheck-three-style', '1.0', [
  {
    name: 'three-style-tau',
    ops: {
      'slerp.f64': (q0, q1, t, out) => slerpTau(q0, q1, t, 0.9995, out),
      'slerp_tau.f64': slerpTau,
    },
  },
]);
