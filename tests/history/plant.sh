#!/bin/bash
# plant.sh REGISTRY VERSION:KIND... -- fake gl-matrix releases for the history tests. KIND good is a textbook
# slerp; bad is the same with the w of the second key read from the first (the typo of gl-matrix 2.0.0,
# `bw = a[3]`). versions.json lists every VERSION given.
set -euo pipefail
reg="$1"; shift
mkdir -p "$reg/gl-matrix"
list=''
for spec in "$@"; do
  ver="${spec%%:*}"; kind="${spec##*:}"
  d="$reg/gl-matrix/$ver"; mkdir -p "$d"
  printf '{"name":"gl-matrix","version":"%s","main":"index.js"}\n' "$ver" > "$d/package.json"
  bw='b[3]'; [ "$kind" = bad ] && bw='a[3]'
  cat > "$d/index.js" <<JS
'use strict';
function slerp(out, a, b, t) {
  let ax = a[0], ay = a[1], az = a[2], aw = a[3], bx = b[0], by = b[1], bz = b[2], bw = $bw;
  let c = ax * bx + ay * by + az * bz + aw * bw;
  if (c < 0) { c = -c; bx = -bx; by = -by; bz = -bz; bw = -bw; }
  let s0 = 1 - t, s1 = t;
  if (1 - c > 1e-6) { const o = Math.acos(c), so = Math.sin(o); s0 = Math.sin((1 - t) * o) / so; s1 = Math.sin(t * o) / so; }
  out[0] = s0 * ax + s1 * bx; out[1] = s0 * ay + s1 * by; out[2] = s0 * az + s1 * bz; out[3] = s0 * aw + s1 * bw;
  return out;
}
function lerp(out, a, b, t) { for (let i = 0; i < 4; i++) out[i] = a[i] + t * (b[i] - a[i]); return out; }
function normalize(out, a) { const l = Math.hypot(a[0], a[1], a[2], a[3]); for (let i = 0; i < 4; i++) out[i] = a[i] / l; return out; }
module.exports = { quat: { slerp, lerp, normalize } };
JS
  list="$list${list:+,}\"$ver\""
done
echo "[$list]" > "$reg/gl-matrix/versions.json"
