// quatcheck process plugin: OGL (npm "ogl"), run as `node impls/js/ogl.js`.
// ogl-slerp.f64: Quat.prototype.slerp(q, t), the method scene code calls (this := slerp(this, q, t)); a Quat is
//   an Array subclass of JS numbers (double precision) in (x, y, z, w) order. OGL has no nlerp and no squad.
'use strict';
const { serve, xyzwOp, packageVersion } = require('./protocol');

import('ogl').then(({ Quat }) => {  // ogl is an ES module
const r = new Quat(), b = new Quat();

// r.slerp(b, t) returns r, whose w, x, y, z getters read r[3], r[0], r[1], r[2].
serve('ogl', packageVersion('ogl'), [{ name: 'ogl-slerp', ops: { 'slerp.f64': xyzwOp(r, b, (r, b, t) => r.slerp(b, t)) } }]);
});
