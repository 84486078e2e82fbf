// quatcheck process plugin: @thi.ng/matrices (npm "@thi.ng/matrices"), run as `node impls/js/thing-matrices.js`.
// thing-mixq.f64: mixQ(out, a, b, t), its quaternion slerp, with its default eps = 1e-3, on plain arrays of JS
//   numbers (double precision) in (x, y, z, w) order, as @thi.ng/matrices' quatFromAxisAngle makes them.
//   As documented (mixq.d.ts): "switch to linear interpolation if the angular difference is very small". It
//   takes no shortest arc (no sign flip on a negative dot product). No nlerp, no squad.
'use strict';
const { serve, packageVersion } = require('./protocol');

import('@thi.ng/matrices').then(({ mixQ }) => {  // an ES module
const a = [0, 0, 0, 1], b = [0, 0, 0, 1], r = [0, 0, 0, 1];

serve('@thi.ng/matrices', packageVersion('@thi.ng/matrices'), [
  {
    name: 'thing-mixq',
    ops: {
      'slerp.f64': (q0, q1, t, out) => {
        a[0] = q0[1], a[1] = q0[2], a[2] = q0[3], a[3] = q0[0];
        b[0] = q1[1], b[1] = q1[2], b[2] = q1[3], b[3] = q1[0];
        mixQ(r, a, b, t);
        out[0] = r[3], out[1] = r[0], out[2] = r[1], out[3] = r[2];
      },
    },
  },
]);
});
