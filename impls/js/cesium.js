// quatcheck process plugin: CesiumJS's Quaternion, run as `node impls/js/cesium.js`. Cesium's Quaternion holds
// JS numbers (double precision) in x, y, z, w fields (order x, y, z, w); every family is f64.
// cesium-slerp: Quaternion.slerp(start, end, t, result).
// cesium-fastslerp: Quaternion.fastSlerp(start, end, t, result), which Cesium documents as "faster than
//   Quaternion#slerp, but ... only accurate up to 10^-6" (an approximation after David Eberly's "A Fast and
//   Accurate Algorithm for Computing SLERP"): docs/history.md measures that claim release by release.
// cesium-squad / cesium-fastsquad: Quaternion.squad / fastSquad(q0, q1, s0, s1, t, result), the inner points
//   from Quaternion.computeInnerQuadrangle(q0, q1, q2, result) (squad_setup). fastSquad runs on fastSlerp and is
//   documented as "faster than Quaternion#squad, but less accurate".
// Documented deviations (hello `known` lines, docs/plugin-protocol.md): none declared. fastSlerp's documented
// bound, an accuracy of 1e-6, is declared as a claim instead (hello `claim` line): conform holds fastSlerp to it
// (claimed-accuracy), so a release that breaks it is a finding; docs/history.md measures it release by release.
// fastSquad's "less accurate" names no bound.
// Which package: by default npm "@cesium/engine" from this folder (pinned in package.json; the engine alone,
// without the widgets and built assets of the "cesium" release package). Its Quaternion is loaded from the
// module that defines it, Source/Core/Quaternion.js, the very class the package's index.js re-exports (that
// index loads the whole engine, seconds per adapter start; tests/adapters_js41.test.sh checks the two are
// one). With QC_JS_PREFIX (quatcheck history, which installs releases of npm "cesium"): that prefix's "cesium".
'use strict';
const { serve, packageVersion, library, importLibrary, supports } = require('./protocol');
supports('cesium', '1.100.0', 'older releases were not checked: their package main is another build');

const fromRelease = Boolean(process.env.QC_JS_PREFIX);
const pkg = fromRelease ? 'cesium' : '@cesium/engine';
(fromRelease ? Promise.resolve(library('cesium').Quaternion)
             : importLibrary('@cesium/engine/Source/Core/Quaternion.js').then((m) => m.default)).then((Quaternion) => {
const A = new Quaternion(), B = new Quaternion(), S0 = new Quaternion(), S1 = new Quaternion(), R = new Quaternion();
const load = (dst, q) => { dst.x = q[1]; dst.y = q[2]; dst.z = q[3]; dst.w = q[0]; return dst; };
const store = (r, out) => { out[0] = r.w, out[1] = r.x, out[2] = r.y, out[3] = r.z; };
const slerp = (fn) => (q0, q1, t, out) => store(fn(load(A, q0), load(B, q1), t, R), out);
const squad = (fn) => (q0, q1, a, b, t, out) => store(fn(load(A, q0), load(B, q1), load(S0, a), load(S1, b), t, R), out);
const setup = (prev, cur, next, out) =>
  store(Quaternion.computeInnerQuadrangle(load(A, prev), load(B, cur), load(S0, next), R), out);

serve(pkg, packageVersion(pkg), [
  { name: 'cesium-slerp', ops: { 'slerp.f64': slerp(Quaternion.slerp) } },
  { name: 'cesium-fastslerp', ops: { 'slerp.f64': slerp(Quaternion.fastSlerp) },
    claims: [['slerp', 'accuracy', 1e-6, '"This implementation is faster than Quaternion#slerp, but is only accurate up to 10^-6" (JSDoc of Quaternion.fastSlerp, Source/Core/Quaternion.js; taken as every component within 1e-6 of the exact slerp)']] },
  { name: 'cesium-squad', ops: { 'squad.f64': squad(Quaternion.squad), 'squad_setup.f64': setup } },
  { name: 'cesium-fastsquad', ops: { 'squad.f64': squad(Quaternion.fastSquad), 'squad_setup.f64': setup } },
]);
});
