// quatcheck process plugin: cannon-es (npm "cannon-es"), run as `node impls/js/cannon-es.js`.
// Quaternion holds JS numbers (double precision); order (x, y, z, w).
// cannon-slerp: q0.slerp(toQuat, t, target). cannon-es has no nlerp.
'use strict';
const { serve, xyzwOp, packageVersion } = require('./protocol');
const { Quaternion } = require('cannon-es');

const a = new Quaternion(), b = new Quaternion(), r = new Quaternion();
const slerp = (a, b, t) => { a.slerp(b, t, r); return r; };
serve('cannon-es', packageVersion('cannon-es'), [{ name: 'cannon-slerp', ops: { 'slerp.f64': xyzwOp(a, b, slerp) } }]);
