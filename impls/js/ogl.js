// quatcheck process plugin: OGL (npm "ogl"), run as `node impls/js/ogl.js`.
// ogl-slerp.f64: Quat.prototype.slerp(q, t), the method scene code calls (this := slerp(this, q, t)); a Quat is
//   an Array subclass of JS numbers (double precision) in (x, y, z, w) order. OGL has no nlerp and no squad.
'use strict';
const { serve, packageVersion } = require('./protocol');

import('ogl').then(({ Quat }) => {  // ogl is an ES module
const r = new Quat(), b = new Quat();

serve('ogl', packageVersion('ogl'), [
  {
    name: 'ogl-slerp',
    ops: {
      'slerp.f64': (q0, q1, t, out) => {
        r.set(q0[1], q0[2], q0[3], q0[0]);
        b.set(q1[1], q1[2], q1[3], q1[0]);
        r.slerp(b, t);
        out[0] = r[3], out[1] = r[0], out[2] = r[1], out[3] = r[2];
      },
    },
  },
]);
});
