// quatcheck process plugin: the JavaScript port of quatcheck's recommended slerp (impls/fixes/qc_slerp.mjs,
// the fix `quatcheck findings` hands JavaScript maintainers), run as `node impls/fixes/fix-js.js`.
// fix-js.f64: slerp.f64 and nlerp.f64, calling slerp(q0, q1, t) and nlerp(q0, q1, t) of qc_slerp.mjs on
// arrays of JS numbers, as a user would; the port takes any component order, so (w, x, y, z) passes as is.
// Needs node only (no npm package). QC_FIX_PLANT=near0 (for tests/fixes.test.sh's negative control only)
// plants a near-0 defect in this wrapper, not in the port: q0 is returned where 1 - |q0.q1|/(|q0||q1|) < 1e-6.
'use strict';
const path = require('path');
const { pathToFileURL } = require('url');
const { serve } = require('../js/protocol');

// The planted defect (QC_FIX_PLANT=near0): the ends' cosine as the port's callers would compute it.
function plantedNear0(q0, q1) {
  let d = 0, n0 = 0, n1 = 0;
  for (let k = 0; k < 4; k++) d += q0[k] * q1[k], n0 += q0[k] * q0[k], n1 += q1[k] * q1[k];
  return 1 - Math.abs(d) / Math.sqrt(n0 * n1) < 1e-6;
}

import(pathToFileURL(path.join(__dirname, 'qc_slerp.mjs')).href).then((port) => {
  const plant = process.env.QC_FIX_PLANT === 'near0';
  const op = (fn) => (q0, q1, t, out) => {
    const r = plant && plantedNear0(q0, q1) ? q0 : fn(q0, q1, t);
    out[0] = r[0], out[1] = r[1], out[2] = r[2], out[3] = r[3];
  };
  serve('impls/fixes/qc_slerp.mjs', '1.0.0', [
    { name: 'fix-js', ops: { 'slerp.f64': op(port.slerp), 'nlerp.f64': op(port.nlerp) } },
  ]);
});
