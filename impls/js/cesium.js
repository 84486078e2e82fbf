// quatcheck process plugin: CesiumJS (npm "cesium"), run as `node impls/js/cesium.js`, or by quatcheck history
// against any release it installs (QC_JS_PREFIX). Cesium's Quaternion holds JS numbers (double precision) in
// x, y, z, w fields; every family is f64.
// cesium-slerp: Quaternion.slerp(start, end, t, result).
// cesium-fastslerp: Quaternion.fastSlerp(start, end, t, result), which Cesium documents as "an optimized
//   version of slerp ... [with] an error of 1e-6" (its reference: "A Fast and Accurate Algorithm for
//   Computing SLERP" by David Eberly): docs/history.md measures that claim.
// cesium-squad / cesium-fastsquad: Quaternion.squad / fastSquad(q0, q1, s0, s1, t, result), the inner points
//   from Quaternion.computeInnerQuadrangle(q0, q1, q2, result) (squad_setup).
// cesium is not in this folder's package.json (its release with dependencies is about 130 MB): quatcheck
// history installs it into its cache; for a plain run, `npm install cesium` here first.
'use strict';
const { serve, packageVersion, library, supports } = require('./protocol');
supports('cesium', '1.100.0', 'older releases were not checked: their package main is another build');
const { Quaternion } = library('cesium');

const A = new Quaternion(), B = new Quaternion(), S0 = new Quaternion(), S1 = new Quaternion(), R = new Quaternion();
const load = (dst, q) => { dst.x = q[1]; dst.y = q[2]; dst.z = q[3]; dst.w = q[0]; return dst; };
const store = (r, out) => { out[0] = r.w, out[1] = r.x, out[2] = r.y, out[3] = r.z; };
const slerp = (fn) => (q0, q1, t, out) => store(fn(load(A, q0), load(B, q1), t, R), out);
const squad = (fn) => (q0, q1, a, b, t, out) => store(fn(load(A, q0), load(B, q1), load(S0, a), load(S1, b), t, R), out);
const setup = (prev, cur, next, out) =>
  store(Quaternion.computeInnerQuadrangle(load(A, prev), load(B, cur), load(S0, next), R), out);

serve('cesium', packageVersion('cesium'), [
  { name: 'cesium-slerp', ops: { 'slerp.f64': slerp(Quaternion.slerp) } },
  { name: 'cesium-fastslerp', ops: { 'slerp.f64': slerp(Quaternion.fastSlerp) },
    claims: [['slerp', 'accuracy', 1e-6, '"This implementation is faster than Quaternion#slerp, but is only accurate up to 10^-6" (JSDoc of Quaternion.fastSlerp, Source/Core/Quaternion.js; taken as every component within 1e-6 of the exact slerp)']] },
  { name: 'cesium-squad', ops: { 'squad.f64': squad(Quaternion.squad), 'squad_setup.f64': setup } },
  { name: 'cesium-fastsquad', ops: { 'squad.f64': squad(Quaternion.fastSquad), 'squad_setup.f64': setup } },
]);
